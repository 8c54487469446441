/**
 * The shapes a tool-call form is made of: the model built from an input schema (FormNode),
 * the values a person edits (FormValue), and conversion errors. Types plus the path helper
 * only; building and converting live in schema-form.ts and schema-form-values.ts.
 */

/** Annotations every node may carry, taken from the schema. */
export interface NodeBase {
  title?: string;
  description?: string;
  /** The schema's `default`, as JSON. */
  default?: unknown;
  /** True when `null` is an accepted value besides the node's own kind. */
  nullable?: boolean;
}

/** One choice of an enum node; `value` is the JSON value sent, `label` what the select shows. */
export interface EnumOption {
  label: string;
  value: unknown;
}

/** One property of an object node. */
export interface FormField {
  key: string;
  required: boolean;
  title?: string;
  description?: string;
  node: FormNode;
}

/**
 * What the form renders for one schema. `json` is the raw JSON editor, used wherever a form
 * cannot represent the schema faithfully; `reason` says why, for the person reading it.
 * Bounds (min, max, lengths) are shown as hints; checking them is the validator's job, so a
 * person can still send out-of-range values on purpose to see how a server answers.
 */
export type FormNode =
  | (NodeBase & { kind: "string"; format?: string; minLength?: number; maxLength?: number; pattern?: string })
  | (NodeBase & { kind: "enum"; options: EnumOption[] })
  | (NodeBase & { kind: "number"; integer: boolean; min?: number; max?: number; exclusiveMin?: boolean; exclusiveMax?: boolean })
  | (NodeBase & { kind: "boolean" })
  | (NodeBase & { kind: "object"; fields: FormField[] })
  | (NodeBase & { kind: "array"; item: FormNode; minItems?: number; maxItems?: number })
  | (NodeBase & { kind: "json"; reason: string });

/** The node kinds. */
export type FormNodeKind = FormNode["kind"];

/**
 * What a person has entered for a node. Text inputs keep their text (numbers too, so "1." can
 * be typed); an enum keeps the chosen option's index (-1: none yet). `null` is a nullable node
 * set to null. A `json` value may stand in for any node: it is how a value the form cannot show
 * (from "edit as JSON", or a wrong type) survives the trip back to the form unchanged.
 * An object's absent key is an optional field left out; `extra` keeps keys the schema does not
 * declare, so they are not lost either.
 */
export type FormValue =
  | { kind: "string"; text: string }
  | { kind: "number"; text: string }
  | { kind: "boolean"; value: boolean }
  | { kind: "enum"; index: number }
  | { kind: "object"; fields: Record<string, FormValue>; extra: Record<string, unknown> }
  | { kind: "array"; items: FormValue[] }
  | { kind: "json"; text: string }
  | { kind: "null" };

/** A value that cannot become an argument, at a path such as `arguments.items[0].qty`. */
export interface FormError {
  path: string;
  message: string;
}

/** The root of every path, matching lib/mcp/validate.ts so its issues land on the same fields. */
export const ROOT_PATH = "arguments";

/** The path of an object key below `parent`, in the same notation as lib/mcp/validate.ts. */
export function keyPath(parent: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * Sets an own property even for keys such as "__proto__", which plain assignment would turn
 * into a prototype change: tool schemas may declare any property name.
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** An own property only, never one inherited from Object.prototype ("constructor"). */
export function getOwn<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The path of an array item below `parent`. */
export function itemPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
