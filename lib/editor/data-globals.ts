/**
 * The editor's inputs (docs/agents.md, "Skills"): a JSON object whose keys become read-only
 * globals of the program (the sandbox's `data`), so a program can be run with other values and
 * saved as a skill whose inputs they are. Parsing says what is wrong in a sentence; the
 * declarations tell Monaco their types. Pure.
 */
import { sanitiseIdentifier } from "../codemode/names";
import { messageOf } from "../text/error-message";

/** Most characters of inputs the editor keeps. */
export const MAX_DATA_CHARS = 100_000;

export type ParsedData = { ok: true; data: Record<string, unknown> } | { ok: false; message: string };

/** Reads the inputs' text; empty text is no inputs. */
export function parseDataGlobals(text: string): ParsedData {
  if (text.trim() === "") return { ok: true, data: {} };
  if (text.length > MAX_DATA_CHARS) return { ok: false, message: `Inputs are longer than ${MAX_DATA_CHARS} characters.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Inputs are not JSON: ${messageOf(error)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: 'Inputs are a JSON object whose keys become globals: { "maxDays": 5 }.' };
  for (const key of Object.keys(value)) {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) || sanitiseIdentifier(key, true) !== key)
      return { ok: false, message: `The input "${key}" cannot be a global: use a plain name that is not a reserved word or a built-in.` };
  }
  return { ok: true, data: value as Record<string, unknown> };
}

/** `declare const name: type;` for each input, typed from its value, for the editor. */
export function dataDeclarations(data: Record<string, unknown>): string {
  return Object.entries(data)
    .map(([key, value]) => `/** An input (the editor's Inputs). */\ndeclare const ${key}: ${typeOfValue(value, 0)};`)
    .join("\n");
}

function typeOfValue(value: unknown, depth: number): string {
  if (value === null) return "null";
  if (depth > 6) return "unknown";
  switch (typeof value) {
    case "number":
    case "string":
    case "boolean":
      return typeof value;
    case "object": {
      if (Array.isArray(value)) {
        const items = [...new Set(value.slice(0, 50).map((item) => typeOfValue(item, depth + 1)))];
        if (items.length === 0) return "unknown[]";
        return items.length === 1 ? `${items[0]}[]` : `Array<${items.join("|")}>`;
      }
      const members = Object.entries(value as Record<string, unknown>)
        .slice(0, 100)
        .map(([key, member]) => `${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key)}:${typeOfValue(member, depth + 1)}`);
      return `{${members.join(";")}}`;
    }
    default:
      return "unknown";
  }
}
