/**
 * Visits every subschema of a tool schema with a readable path (`input.edits[].oldText`),
 * following internal `$ref`s once (a cycle is visited once, not forever). The lint is built
 * on it; the converter is not, because it needs the tree's shape rather than a flat visit.
 */
import type { JsonSchema } from "./types";
import { isSchemaObject, resolveRef, type SchemaObject } from "./schema-ref";

/** What the walker tells a visitor about one subschema. */
export interface SchemaVisit {
  schema: SchemaObject | boolean;
  path: string;
  /** How many objects enclose this schema (the root object is depth 1). */
  objectDepth: number;
  /** Set when this subschema is a property of an object: the property's name. */
  property?: string;
}

/** A `$ref` the walker could not follow. */
export interface BrokenRef {
  path: string;
  ref: string;
  reason: "external" | "unresolved";
}

const CHILD_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;
const CHILD_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;
const CHILD_SINGLE = ["additionalProperties", "items", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames"] as const;

/** Walks a schema depth-first, calling `visit` on each subschema; returns the broken refs met. */
export function walkSchema(root: JsonSchema, rootPath: string, visit: (v: SchemaVisit) => void): BrokenRef[] {
  const broken: BrokenRef[] = [];
  const followed = new Set<string>();
  const step = (schema: unknown, path: string, objectDepth: number, property?: string): void => {
    if (typeof schema !== "boolean" && !isSchemaObject(schema)) return;
    const isObject =
      isSchemaObject(schema) && (schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object")) || "properties" in schema);
    const depth = isObject ? objectDepth + 1 : objectDepth;
    visit({ schema, path, objectDepth: depth, ...(property !== undefined && { property }) });
    if (typeof schema === "boolean") return;
    if (typeof schema.$ref === "string") {
      const ref = schema.$ref;
      const target = resolveRef(root, ref);
      if (target === undefined) broken.push({ path, ref, reason: ref.startsWith("#") ? "unresolved" : "external" });
      else if (!followed.has(ref) && ref !== "#") {
        followed.add(ref);
        step(target, path, objectDepth, property);
      }
    }
    for (const key of CHILD_MAPS) {
      const map = schema[key];
      if (!isSchemaObject(map)) continue;
      // Definitions are reached through the refs that use them, with the user's path.
      if (key === "$defs" || key === "definitions") continue;
      for (const [name, child] of Object.entries(map)) {
        const childPath = key === "properties" ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
        step(child, childPath, depth, key === "properties" ? name : undefined);
      }
    }
    for (const key of CHILD_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) list.forEach((child, i) => step(child, key === "prefixItems" ? `${path}[${i}]` : path, depth));
    }
    for (const key of CHILD_SINGLE) {
      const child = schema[key];
      if (key === "items" && Array.isArray(child)) child.forEach((c, i) => step(c, `${path}[${i}]`, depth));
      else if (key === "items" || key === "additionalItems") step(child, `${path}[]`, depth);
      else if (key === "additionalProperties") step(child, `${path}[key]`, depth);
      else step(child, path, depth);
    }
  };
  step(root, rootPath, 0);
  return broken;
}
