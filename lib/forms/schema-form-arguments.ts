/**
 * Form values → tool arguments: numbers parsed, JSON parts parsed, empty optional fields left
 * out. Pure. Only what the form itself cannot turn into JSON is an error here; whether the
 * arguments satisfy the schema (bounds, patterns, required keys) is for lib/mcp/validate.ts,
 * so a person can still send a bad call on purpose to see how the server answers.
 */
import { ROOT_PATH, getOwn, itemPath, keyPath, setOwn } from "./form-model";
import type { FormError, FormNode, FormValue } from "./form-model";
import { messageOf } from "../text/error-message";

/** The arguments to send, or every field that could not be converted. */
export type ArgumentsResult = { ok: true; args: unknown } | { ok: false; errors: FormError[] };

// Plain decimal notation only: Number() would also take "0x1f", "  " and "Infinity".
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Converts a form value to the tool's arguments, collecting every error rather than the first. */
export function toArguments(node: FormNode, value: FormValue): ArgumentsResult {
  const errors: FormError[] = [];
  const args = convert(node, value, ROOT_PATH, errors);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, args };
}

/**
 * True when an optional field holds nothing worth sending: empty text, no enum choice, or an
 * object whose fields are all blank. Booleans, null and arrays (even []) are real values.
 */
export function isBlank(value: FormValue): boolean {
  switch (value.kind) {
    case "string":
      return value.text === "";
    case "number":
    case "json":
      return value.text.trim() === "";
    case "enum":
      return value.index < 0;
    case "object":
      return Object.keys(value.extra).length === 0 && Object.values(value.fields).every(isBlank);
    default:
      return false;
  }
}

function convert(node: FormNode, value: FormValue, path: string, errors: FormError[]): unknown {
  const fail = (message: string): undefined => {
    errors.push({ path, message });
    return undefined;
  };
  if (value.kind === "null") return null;
  if (value.kind === "json") return parseJson(value.text, fail);
  if (value.kind !== node.kind) return fail(`Holds a ${value.kind} value where the schema expects ${node.kind === "enum" ? "a choice" : `a ${node.kind}`}.`);
  switch (value.kind) {
    case "string":
      return value.text;
    case "number":
      return parseNumber(value.text, node.kind === "number" && node.integer, fail);
    case "boolean":
      return value.value;
    case "enum": {
      const options = node.kind === "enum" ? node.options : [];
      const chosen = options[value.index];
      return chosen === undefined ? fail("Choose a value.") : chosen.value;
    }
    case "array":
      if (node.kind !== "array") return undefined;
      return value.items.map((item, i) => convert(node.item, item, itemPath(path, i), errors));
    case "object": {
      if (node.kind !== "object") return undefined;
      const out: Record<string, unknown> = {};
      for (const field of node.fields) {
        const fieldValue = getOwn(value.fields, field.key);
        // Absent means left out, required or not: the validator reports missing required keys.
        if (fieldValue === undefined || (!field.required && isBlank(fieldValue))) continue;
        setOwn(out, field.key, convert(field.node, fieldValue, keyPath(path, field.key), errors));
      }
      for (const [key, extra] of Object.entries(value.extra)) if (!Object.hasOwn(out, key)) setOwn(out, key, extra);
      return out;
    }
  }
}

function parseNumber(text: string, integer: boolean, fail: (message: string) => undefined): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return fail(integer ? "Enter a whole number." : "Enter a number.");
  if (!DECIMAL.test(trimmed)) return fail(`"${trimmed}" is not a number.`);
  const number = Number(trimmed);
  if (!Number.isFinite(number)) return fail(`${trimmed} is too large to be a number.`);
  if (integer && !Number.isInteger(number)) return fail(`${trimmed} is not a whole number.`);
  // Above 2^53 a JSON number may silently become a different integer on the way to the server.
  if (integer && !Number.isSafeInteger(number)) return fail(`${trimmed} is too large to send exactly.`);
  return number;
}

function parseJson(text: string, fail: (message: string) => undefined): unknown {
  if (text.trim() === "") return fail("Enter a JSON value.");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = messageOf(error);
    return fail(`Not valid JSON: ${detail}`);
  }
}
