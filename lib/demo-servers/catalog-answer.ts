/**
 * Deterministic answers for a catalog of captured tools (the large catalog, issue 31): a value
 * valid for a tool's output schema, the same for the same tool and arguments on every machine, so
 * suites over servers that are not running answer offline. A value is built from the schema's
 * types, enums, consts, required properties, item counts, bounds and common formats; `$ref`s to
 * the schema's own `$defs` / `definitions` are followed (a cycle ends in the smallest value).
 * Tools without an output schema answer a small record naming the call. Pure.
 */

import { seededRandom, seedOf } from "../random/seeded";
import { isRecord } from "../text/json-value";
import { resolveRef } from "../codemode/schema-ref";
import type { JsonSchema } from "../codemode/types";

type Schema = JsonSchema;

const WORDS = ["alpha", "bravo", "delta", "echo", "harbor", "orbit", "quartz", "river", "summit", "vector"];
const MAX_DEPTH = 8;

interface Context {
  root: Schema;
  next: () => number;
  depth: number;
  refs: readonly string[];
}

function stringFor(schema: Record<string, unknown>, ctx: Context, key: string): string {
  const n = Math.floor(ctx.next() * 1000);
  switch (schema.format) {
    case "date-time":
      return new Date(Date.UTC(2026, 0, 1 + (n % 300), n % 24, n % 60)).toISOString();
    case "date":
      return new Date(Date.UTC(2026, 0, 1 + (n % 300))).toISOString().slice(0, 10);
    case "email":
      return `${WORDS[n % WORDS.length]}${n}@example.com`;
    case "uri":
    case "url":
      return `https://example.com/${WORDS[n % WORDS.length]}/${n}`;
    case "uuid":
      return `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  }
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  let text = `${key || WORDS[n % WORDS.length]}-${n}`;
  while (text.length < min) text += "x";
  return text.length > max ? text.slice(0, Math.max(min, max)) : text;
}

function numberFor(schema: Record<string, unknown>, ctx: Context, integer: boolean): number {
  const low =
    typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + (integer ? 1 : 0.5) : 0;
  const high =
    typeof schema.maximum === "number"
      ? schema.maximum
      : typeof schema.exclusiveMaximum === "number"
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : low + 100;
  const value = low + ctx.next() * Math.max(0, high - low);
  return integer ? Math.min(Math.floor(high), Math.max(Math.ceil(low), Math.round(value))) : Math.round(value * 100) / 100;
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return (schema.type as unknown[]).find((t): t is string => typeof t === "string" && t !== "null") ?? "null";
  if (isRecord(schema.properties) || Array.isArray(schema.required)) return "object";
  if (schema.items !== undefined) return "array";
  return undefined;
}

function valueFor(schema: Schema, ctx: Context, key = ""): unknown {
  if (schema === true || schema === false || !isRecord(schema)) return null;
  if (ctx.depth > MAX_DEPTH) return smallest(schema);
  const inner = { ...ctx, depth: ctx.depth + 1 };
  if (typeof schema.$ref === "string") {
    const target = ctx.refs.includes(schema.$ref) ? undefined : resolveRef(ctx.root, schema.$ref);
    return target === undefined ? smallest(schema) : valueFor(target, { ...inner, refs: [...ctx.refs, schema.$ref] }, key);
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[Math.floor(ctx.next() * schema.enum.length)];
  if (Array.isArray(schema.allOf)) {
    const merged: Record<string, unknown> = { ...schema, allOf: undefined, properties: {}, required: [] };
    for (const part of [schema, ...(schema.allOf as unknown[])]) {
      const resolved = isRecord(part) && typeof part.$ref === "string" ? resolveRef(ctx.root, part.$ref) : part;
      if (!isRecord(resolved)) continue;
      if (isRecord(resolved.properties)) Object.assign(merged.properties as object, resolved.properties);
      if (Array.isArray(resolved.required)) (merged.required as unknown[]).push(...(resolved.required as unknown[]));
      if (resolved.type !== undefined) merged.type = resolved.type;
    }
    delete merged.allOf;
    return valueFor(merged, inner, key);
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const options = schema[keyword];
    if (Array.isArray(options) && options.length > 0) {
      const all = options as Schema[];
      const usable = all.filter((o) => !(isRecord(o) && o.type === "null"));
      return valueFor(usable[0] ?? all[0]!, inner, key);
    }
  }
  switch (typeOf(schema)) {
    case "object": {
      const out: Record<string, unknown> = {};
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
      for (const [name, property] of Object.entries(properties)) {
        // Every required property; optional ones at the top levels, so answers read like real ones.
        if (required.has(name) || ctx.depth < 3)
          Object.defineProperty(out, name, { value: valueFor(property as Schema, inner, name), enumerable: true, writable: true, configurable: true });
      }
      for (const name of required)
        if (!Object.hasOwn(out, name)) Object.defineProperty(out, name, { value: `${name}-value`, enumerable: true, writable: true, configurable: true });
      return out;
    }
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      const max = typeof schema.maxItems === "number" ? schema.maxItems : min + 3;
      const count = Math.min(max, Math.max(min, ctx.depth < 3 ? 3 : 1));
      const items = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : undefined;
      return Array.from({ length: items ? items.length : count }, (_, i) =>
        valueFor(items ? items[i]! : ((schema.items as Schema | undefined) ?? {}), inner, key),
      );
    }
    case "string":
      return stringFor(schema, ctx, key);
    case "integer":
      return numberFor(schema, ctx, true);
    case "number":
      return numberFor(schema, ctx, false);
    case "boolean":
      return ctx.next() < 0.5;
    case "null":
      return null;
    default:
      return `${key || "value"}-${Math.floor(ctx.next() * 1000)}`;
  }
}

/** The smallest value a schema accepts that needs no more recursion (a cycle's end). */
function smallest(schema: Record<string, unknown>): unknown {
  switch (typeOf(schema)) {
    case "array":
      return [];
    case "object":
      return {};
    case "string":
      return "";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}

/** A value valid for `schema`, the same for the same `seed` text. */
export function sampleValue(schema: Schema, seed: string): unknown {
  return valueFor(schema, { root: schema, next: seededRandom(seedOf(seed)), depth: 0, refs: [] });
}

/** The answer to a call of a captured tool: structured content for its output schema, else a small record naming the call. */
export function catalogAnswer(server: string, tool: { name: string; outputSchema?: { readonly [keyword: string]: unknown } }, args: unknown): unknown {
  const seed = `${server}\u0000${tool.name}\u0000${JSON.stringify(args ?? {})}`;
  if (tool.outputSchema) return sampleValue(tool.outputSchema, seed);
  const n = seedOf(seed) % 1000;
  return {
    server,
    tool: tool.name,
    ok: true,
    id: `${tool.name}-${n}`,
    items: [1, 2, 3].map((i) => ({ id: `${WORDS[(n + i) % WORDS.length]}-${i}`, score: (n * i) % 97 })),
  };
}
