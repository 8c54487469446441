/**
 * Reading untrusted JSON Schema: the object test and internal `$ref` resolution that the
 * converter, the doc writer and the lint all share.
 */
import type { JsonSchema } from "./types";
import { isRecord } from "../text/json-value";

/** A schema object, keywords unknown until checked. */
export type SchemaObject = { readonly [keyword: string]: unknown };

/** True for a JSON object (not null, not an array). */
export function isSchemaObject(value: unknown): value is SchemaObject {
  return isRecord(value);
}

/**
 * Resolves an internal JSON Pointer `$ref` (`#`, `#/$defs/A`, `#/definitions/A~1b`) against
 * the root; undefined for external references and for pointers that lead nowhere.
 */
export function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (typeof current !== "object" || current === null) return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return typeof current === "boolean" || isSchemaObject(current) ? current : undefined;
}
