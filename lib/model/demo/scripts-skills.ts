/**
 * The demo model and the person's skills (docs/agents.md, "Skills"): a message that names
 * `skills.<name>` (with its input as a JSON object, if any) gets a program that calls that skill,
 * so skills can be tried in the chat offline. The skill's own program is the person's, so the
 * demo model only calls it and shows what it returned.
 */
import type { DemoScript } from "./demo-script";
import { excerpt } from "./demo-format";
import { isRecord } from "../../text/json-value";

const SKILL_CALL = /\bskills\.([A-Za-z_][A-Za-z0-9_]{0,63})\b/;

/** The first JSON object in the text, or {} when there is none that parses. */
function inputIn(text: string): Record<string, unknown> {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return {};
  try {
    const value = JSON.parse(text.slice(start, end + 1)) as unknown;
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

/** A script calling the skill the message names, or undefined when it names none. */
export function skillScript(text: string): DemoScript | undefined {
  const name = SKILL_CALL.exec(text)?.[1];
  if (name === undefined) return undefined;
  const input = inputIn(text);
  return {
    server: "skills",
    namespaces: ["skills"],
    prompt: text,
    intro: `I'll call your skill \`skills.${name}\`: it already knows how to do this.`,
    searchQuery: name.replace(/_+/g, " "),
    code: `return await skills.${name}(${JSON.stringify(input)});`,
    summarise: (value) => `\`skills.${name}\` returned:\n\n${excerpt(value, 1_500)}`,
    notOffered: `There is no skill \`skills.${name}\` to call. Save one with **Save as skill** (in the editor or on a run), or trust an imported one in the Skills tab, then send this again.`,
  };
}
