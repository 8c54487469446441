/**
 * JSON Schema → TypeScript type tree. Written by hand because this is the product's own
 * craft (docs/ARCHITECTURE.md): the libraries that do it (json-schema-to-typescript and kin)
 * emit whole modules with interfaces and banners, need Node, and cannot share shapes across
 * tools or keep per-property JSDoc as compact as a prompt needs.
 *
 * Covers drafts 4 to 2020-12 as far as a type can say anything: objects, arrays, tuples
 * (`prefixItems` and array-form `items`), required/optional, enum/const, nullable (type
 * arrays and OpenAPI `nullable`), anyOf/oneOf (union), allOf (intersection), internal `$ref`
 * with `$defs`/`definitions`, additionalProperties/patternProperties (index signatures),
 * boolean and empty schemas. Validation-only keywords (minimum, pattern, …) carry no type.
 * Anything it cannot express (external refs, `$ref` cycles, depth past the cap) is `unknown`.
 */
import type { JsonSchema } from "./types";
import type { NameHint, TsMember, TsObject, TsType } from "./ts-type";
import { intersection, keyword, literal, union } from "./ts-type";
import { docText, propertyDoc, type DocLimits } from "./schema-docs";
import { isSchemaObject, resolveRef, type SchemaObject } from "./schema-ref";

/** Conversion limits; see GenerateOptions for what each one means. */
export interface ConvertLimits extends DocLimits {
  maxDepth: number;
  maxNodes: number;
}

interface Context extends ConvertLimits {
  root: JsonSchema;
  /** `$ref`s being expanded right now: meeting one again is a cycle. */
  refStack: string[];
  nodesLeft: number;
}

/** Converts one tool schema (an input or output root) into a type tree. */
export function schemaToType(schema: unknown, limits: ConvertLimits, hint: NameHint): TsType {
  const root: JsonSchema = typeof schema === "boolean" || isSchemaObject(schema) ? schema : {};
  const context: Context = { ...limits, root, refStack: ["#"], nodesLeft: limits.maxNodes };
  return convert(root, context, 0, hint);
}

function convert(schema: unknown, ctx: Context, depth: number, hint: NameHint): TsType {
  if (schema === true) return keyword("unknown");
  if (schema === false) return keyword("never");
  if (!isSchemaObject(schema)) return keyword("unknown");
  if (depth > ctx.maxDepth || --ctx.nodesLeft < 0) return keyword("unknown");
  const own = titleHint(schema) ?? hint;
  const type = typeof schema.$ref === "string" ? convertRef(schema, schema.$ref, ctx, depth, own) : convertBody(schema, ctx, depth, own);
  // OpenAPI 3.0 spells "or null" as `nullable: true` instead of a type array.
  return schema.nullable === true ? union([type, keyword("null")]) : type;
}

function titleHint(schema: SchemaObject): NameHint | undefined {
  return typeof schema.title === "string" && schema.title.trim() !== "" ? { name: schema.title, strength: 2 } : undefined;
}

// Keywords that say nothing about the type: their presence beside `$ref` changes nothing.
const ANNOTATIONS = new Set([
  "$ref",
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "definitions",
  "title",
  "description",
  "default",
  "examples",
  "example",
  "deprecated",
  "readOnly",
  "writeOnly",
  "nullable",
  "format",
]);

function convertRef(schema: SchemaObject, ref: string, ctx: Context, depth: number, hint: NameHint): TsType {
  const target = resolveRef(ctx.root, ref);
  let refType: TsType = keyword("unknown");
  if (target !== undefined && !ctx.refStack.includes(ref)) {
    const name = ref.split("/").at(-1);
    const refHint: NameHint = hint.strength === 2 || !name || name === "#" ? hint : { name, strength: 2 };
    ctx.refStack.push(ref);
    refType = convert(target, ctx, depth + 1, refHint);
    ctx.refStack.pop();
  }
  // Since 2019-09 keywords beside `$ref` apply too; before, they were ignored. Applying them
  // is right for new schemas and harmless for old ones (they rarely put any there).
  const siblings = Object.keys(schema).some((k) => !ANNOTATIONS.has(k));
  return siblings ? intersection([refType, convertBody(schema, ctx, depth, hint)]) : refType;
}

const COMBINATORS = ["anyOf", "oneOf", "allOf"] as const;
const STRUCTURAL = ["properties", "additionalProperties", "patternProperties", "items", "prefixItems"];

// Runs for every subschema of every tool, so it avoids allocating on the common path (a
// single string `type`, no combinators): 1 000 tools convert in about 15 ms.
function convertBody(schema: SchemaObject, ctx: Context, depth: number, hint: NameHint): TsType {
  const base = convertBase(schema, ctx, depth, hint);
  let parts: TsType[] | undefined;
  for (const combinator of COMBINATORS) {
    const branches = schema[combinator];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const types = branches.map((b) => convert(b, ctx, depth + 1, hint));
    (parts ??= []).push(combinator === "allOf" ? intersection(types) : union(types));
  }
  if (!parts) return base ?? keyword("unknown");
  const combined = intersection(parts);
  // `{ type: "object", anyOf: [A, B] }` means A|B, not Record<string,unknown>&(A|B): a base
  // that only repeats `type` adds nothing once the branches say more.
  const typeOnly = !("const" in schema) && !("enum" in schema) && !STRUCTURAL.some((k) => k in schema);
  if (!base || (typeOnly && combined.kind !== "keyword")) return combined;
  return intersection([base, combined]);
}

function convertBase(schema: SchemaObject, ctx: Context, depth: number, hint: NameHint): TsType | undefined {
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return convertEnum(schema, schema.enum, ctx);
  if (typeof schema.type === "string") return convertSingle(schema.type, schema, ctx, depth, hint);
  const types = Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === "string") : inferTypes(schema);
  if (types.length === 0) return undefined;
  return union(types.map((t) => convertSingle(t, schema, ctx, depth, hint)));
}

// A schema without `type` is still an object when it lists properties, an array when it has items.
function inferTypes(schema: SchemaObject): string[] {
  if ("properties" in schema || "additionalProperties" in schema || "patternProperties" in schema || "required" in schema) return ["object"];
  if ("items" in schema || "prefixItems" in schema) return ["array"];
  return [];
}

function convertSingle(type: string, schema: SchemaObject, ctx: Context, depth: number, hint: NameHint): TsType {
  switch (type) {
    case "string":
    case "boolean":
    case "null":
      return keyword(type);
    case "number":
    case "integer":
      return keyword("number");
    case "array":
      return convertArray(schema, ctx, depth, hint);
    case "object":
      return convertObject(schema, ctx, depth, hint);
    default:
      return keyword("unknown");
  }
}

function convertEnum(schema: SchemaObject, values: readonly unknown[], ctx: Context): TsType {
  if (values.length <= ctx.maxEnumMembers) return union(values.map(literal));
  // Thousands of literals would swamp the prompt; the base type plus a JSDoc note (added by
  // propertyDoc) keeps the declaration usable. The lint reports the enum.
  const declared: readonly unknown[] = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const kinds = declared.length > 0 ? declared : [...new Set(values.map((v) => (v === null ? "null" : typeof v)))];
  return union(kinds.map(baseKeyword));
}

function baseKeyword(kind: unknown): TsType {
  if (kind === "string" || kind === "boolean" || kind === "null") return keyword(kind);
  return kind === "number" || kind === "integer" ? keyword("number") : keyword("unknown");
}

function convertArray(schema: SchemaObject, ctx: Context, depth: number, hint: NameHint): TsType {
  const itemHint: NameHint = hint.strength === 1 ? { name: singular(hint.name), strength: 1 } : hint;
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (prefix) {
    // 2020-12 puts the rest in `items`; drafts 4–2019 in `additionalItems`.
    const restSchema = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
    const elements = prefix.map((p) => convert(p, ctx, depth + 1, itemHint));
    // An unspecified rest is typed as a closed tuple: tuple schemas come from generators
    // that mean a fixed length, and `[A,B,...unknown[]]` would only blur that.
    const rest = restSchema === undefined || restSchema === false ? undefined : convert(restSchema, ctx, depth + 1, itemHint);
    return { kind: "tuple", elements, ...(rest && { rest }) };
  }
  const element = schema.items === undefined ? keyword("unknown") : convert(schema.items, ctx, depth + 1, itemHint);
  return { kind: "array", element };
}

function convertObject(schema: SchemaObject, ctx: Context, depth: number, hint: NameHint): TsType {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  // Arrays, not Sets: `required` lists are short and this runs for every object of every tool.
  const required: readonly unknown[] = Array.isArray(schema.required) ? schema.required : [];
  const members: TsMember[] = [];
  for (const name in properties) {
    if (!Object.hasOwn(properties, name)) continue;
    const property = properties[name];
    members.push({
      name,
      optional: !required.includes(name),
      type: convert(property, ctx, depth + 1, { name, strength: 1 }),
      doc: propertyDoc(property, ctx.root, ctx),
    });
  }
  // A required name without a property schema is still required: the call must pass it.
  for (const name of required) {
    if (typeof name === "string" && !Object.hasOwn(properties, name) && !members.some((m) => m.name === name)) {
      members.push({ name, optional: false, type: keyword("unknown"), doc: "" });
    }
  }
  const object: TsObject = { kind: "object", members, closed: false, hint };
  const additional = schema.additionalProperties;
  const patternProperties = isSchemaObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  object.closed = additional === false && patternProperties.length === 0;
  if (additional !== true && !isSchemaObject(additional) && patternProperties.length === 0) return object;
  const indexTypes: TsType[] = [];
  if (additional === true || isSchemaObject(additional)) indexTypes.push(convert(additional, ctx, depth + 1, hint));
  for (const [, property] of patternProperties) indexTypes.push(convert(property, ctx, depth + 1, hint));
  // TypeScript requires every declared property (undefined included, when optional) to fit
  // the index signature's type, so the index type is widened to cover them.
  for (const m of members) indexTypes.push(m.type);
  if (members.some((m) => m.optional)) indexTypes.push(keyword("undefined"));
  const patterns = patternProperties.map(([pattern]) => `/${pattern}/`);
  const doc = patterns.length > 0 ? docText(`keys matching ${patterns.join(" or ")}`) : "";
  object.index = { type: union(indexTypes), doc };
  return object;
}

/** A naive singular for naming array items (`entities` → `entity`); only used for type names. */
export function singular(word: string): string {
  if (/ies$/i.test(word)) return word.slice(0, -3) + "y";
  if (/(ss|sh|ch|x)es$/i.test(word)) return word.slice(0, -2);
  if (/(ss|us|is)$/i.test(word)) return word;
  if (/s$/i.test(word)) return word.slice(0, -1);
  return word;
}
