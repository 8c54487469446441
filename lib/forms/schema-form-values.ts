/**
 * Form values from schema defaults and from existing arguments: what a fresh form shows, and
 * what the form shows after a person edited the arguments as JSON. Pure.
 */
import { getOwn, setOwn } from "./form-model";
import type { FormNode, FormValue } from "./form-model";
import { isRecord } from "../text/json-value";

// A schema asking for thousands of items should not make a fresh form build thousands of rows.
const MAX_INITIAL_ITEMS = 100;

/**
 * A fresh form: defaults applied, required fields present (booleans false, text empty, enums
 * unchosen unless there is one option), optional fields absent unless they have a default.
 */
export function initialValue(node: FormNode): FormValue {
  if (node.default !== undefined) {
    const fromDefault = fit(node, node.default);
    // A default of the wrong type is a schema mistake: ignore it rather than show JSON.
    if (fromDefault) return node.kind === "object" ? withRequired(node, fromDefault) : fromDefault;
  }
  switch (node.kind) {
    case "string":
    case "number":
    case "json":
      return { kind: node.kind, text: "" };
    case "boolean":
      return { kind: "boolean", value: false };
    case "enum":
      return { kind: "enum", index: node.options.length === 1 ? 0 : -1 };
    case "object":
      return withRequired(node, { kind: "object", fields: {}, extra: {} });
    case "array": {
      const count = Math.min(node.minItems ?? 0, MAX_INITIAL_ITEMS);
      return { kind: "array", items: Array.from({ length: count }, () => initialValue(node.item)) };
    }
  }
}

/** Adds the fields a fresh object shows: required ones, and optional ones with a default. */
function withRequired(node: Extract<FormNode, { kind: "object" }>, value: FormValue): FormValue {
  if (value.kind !== "object") return value;
  const fields = { ...value.fields };
  for (const field of node.fields) {
    if (getOwn(fields, field.key) !== undefined) continue;
    if (field.required || field.node.default !== undefined) setOwn(fields, field.key, initialValue(field.node));
  }
  return { ...value, fields };
}

/**
 * The form value showing `args`. Nothing is lost: a part that does not fit its node (wrong
 * type, a value outside the enum) becomes a `json` value holding it, and undeclared keys are
 * kept in `extra`, so toArguments(node, fromArguments(node, x)) gives back x.
 */
export function fromArguments(node: FormNode, args: unknown): FormValue {
  if (args === undefined && node.kind === "object") return { kind: "object", fields: {}, extra: {} };
  return fit(node, args) ?? asJson(args);
}

function asJson(value: unknown): FormValue {
  if (value === undefined) return { kind: "json", text: "" };
  try {
    return { kind: "json", text: JSON.stringify(value, null, 2) ?? "" };
  } catch {
    // Arguments arrive as JSON, so this only guards against a caller passing cycles or BigInts;
    // the text does not parse, so the person sees an error instead of a silent change.
    return { kind: "json", text: typeof value === "bigint" ? `${value}n` : "[not JSON]" };
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** The form value for `value` when it fits `node` at the top level; undefined when it does not. */
function fit(node: FormNode, value: unknown): FormValue | undefined {
  if (node.kind === "json") return asJson(value);
  if (value === null && node.nullable) return { kind: "null" };
  switch (node.kind) {
    case "string":
      return typeof value === "string" ? { kind: "string", text: value } : undefined;
    case "number":
      // Unsafe integers stay JSON text, which toArguments parses back to the very same number.
      if (typeof value !== "number" || !Number.isFinite(value) || (node.integer && !Number.isSafeInteger(value))) return undefined;
      return { kind: "number", text: Object.is(value, -0) ? "-0" : String(value) };
    case "boolean":
      return typeof value === "boolean" ? { kind: "boolean", value } : undefined;
    case "enum": {
      const index = node.options.findIndex((o) => sameJson(o.value, value));
      return index < 0 ? undefined : { kind: "enum", index };
    }
    case "array":
      return Array.isArray(value) ? { kind: "array", items: value.map((item) => fromArguments(node.item, item)) } : undefined;
    case "object": {
      if (!isRecord(value)) return undefined;
      const fields: Record<string, FormValue> = {};
      const declared = new Set(node.fields.map((f) => f.key));
      for (const field of node.fields) {
        const arg = getOwn(value, field.key);
        if (arg !== undefined) setOwn(fields, field.key, fromArguments(field.node, arg));
      }
      const extra = Object.fromEntries(Object.entries(value).filter(([key, v]) => !declared.has(key) && v !== undefined));
      return { kind: "object", fields, extra };
    }
  }
}
