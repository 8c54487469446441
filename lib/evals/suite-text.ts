/**
 * Reads suite text, JSON or YAML (./suite.ts says which and checks the result). Its own module
 * because of the YAML parser: the page loads it with the first YAML suite, not with the page
 * (docs/speed.md, "The page's start").
 */
import { parseDocument } from "yaml";
import { checkSuite, isYamlSuite, parseJsonSuite, type SuiteParse } from "./suite";

/** Parses suite text, JSON or (by file name, or when it does not start with "{") YAML; errors name the path of each problem. */
export function parseSuite(text: string, fileName = ""): SuiteParse {
  if (!isYamlSuite(text, fileName)) return parseJsonSuite(text);
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) return { ok: false, errors: doc.errors.map((e) => `not YAML: ${e.message.split("\n")[0] ?? e.message}`) };
  return checkSuite(doc.toJS({ maxAliasCount: 100 }) as unknown);
}
