/**
 * Tool input schema → form model: which input to show for each argument. Pure.
 *
 * Schemas come from servers we do not control, so nothing here throws: whatever a form cannot
 * represent faithfully (several shapes, pattern keys, tuples, recursion, broken references)
 * becomes a `json` node with a reason, and the person edits that part as raw JSON.
 * Internal `$ref`s are followed, each at most once per path, so a recursive definition
 * shows one level as a form and the rest as JSON.
 */
import { isSchemaObject, resolveRef, type SchemaObject } from "../codemode/schema-ref";
import type { EnumOption, FormField, FormNode, NodeBase } from "./form-model";

// Forms deeper or larger than this are unusable and, with shared definitions expanded on
// every use, could grow exponentially: the rest becomes JSON.
const MAX_DEPTH = 10;
const MAX_NODES = 1_000;
// `$ref` chains (A → B → C) are followed this far when peeking at a union branch.
const MAX_REF_HOPS = 16;

interface Context {
  root: SchemaObject;
  /** References being expanded on the current path: the cycle guard. */
  expanding: Set<string>;
  nodes: number;
}

/** Builds the form model for a tool's `inputSchema`; a missing schema is a form with no fields. */
export function buildFormModel(schema: unknown): FormNode {
  if (schema === undefined) return { kind: "object", fields: [] };
  if (typeof schema === "boolean") return booleanSchema(schema);
  if (!isSchemaObject(schema)) return json("The input schema is not a JSON Schema object: edit the arguments as JSON.");
  // "#" counts as expanding already: a reference back to the root is a recursion.
  return build(schema, { root: schema, expanding: new Set(["#"]), nodes: 0 }, 0, true);
}

function json(reason: string): FormNode {
  return { kind: "json", reason };
}

function booleanSchema(value: boolean): FormNode {
  return value ? json("The schema is `true`: any JSON value is accepted.") : json("The schema is `false`: no value is accepted, so any call will be refused.");
}

/** The schema's own title, description and default, and OpenAPI's `nullable: true`. */
function annotations(schema: SchemaObject): NodeBase {
  const out: NodeBase = {};
  if (typeof schema.title === "string") out.title = schema.title;
  if (typeof schema.description === "string") out.description = schema.description;
  if (schema.default !== undefined) out.default = schema.default;
  if (schema.nullable === true) out.nullable = true;
  return out;
}

/** Lays the outer schema's annotations over a node built from an inner one (`$ref`, one-branch anyOf). */
function overlay(node: FormNode, outer: SchemaObject, nullable = false): FormNode {
  const merged: FormNode = { ...node, ...annotations(outer) };
  if (nullable || node.nullable) merged.nullable = true;
  return merged;
}

function build(schema: unknown, ctx: Context, depth: number, isRoot = false): FormNode {
  if (typeof schema === "boolean") return booleanSchema(schema);
  if (!isSchemaObject(schema)) return json("This part of the schema is not a JSON Schema object.");
  if (++ctx.nodes > MAX_NODES) return json("The schema is too large for a form: edit this part as JSON.");
  if (typeof schema.$ref === "string") return buildRef(schema, schema.$ref, ctx, depth, isRoot);
  if (Array.isArray(schema.allOf)) return buildAllOf(schema, schema.allOf, ctx, depth, isRoot);
  const union = schema.anyOf ?? schema.oneOf;
  if (union !== undefined) return buildUnion(schema, union, ctx, depth, isRoot);
  return { ...buildPlain(schema, ctx, depth, isRoot), ...annotations(schema) };
}

function buildRef(schema: SchemaObject, ref: string, ctx: Context, depth: number, isRoot: boolean): FormNode {
  if (ctx.expanding.has(ref)) return overlay(json(`Recursive reference ${ref}: edit this part as JSON.`), schema);
  const target = resolveRef(ctx.root, ref);
  if (target === undefined) {
    const why = ref.startsWith("#") ? "leads nowhere in this schema" : "points outside this schema and is not followed";
    return overlay(json(`The reference ${ref} ${why}: edit this part as JSON.`), schema);
  }
  // Keywords beside a $ref (draft 2019-09 and later) refine the target: they win.
  const { $ref: _ref, ...siblings } = schema;
  const merged = typeof target === "boolean" ? target : { ...target, ...siblings };
  ctx.expanding.add(ref);
  try {
    const node = build(merged, ctx, depth, isRoot);
    return typeof merged === "boolean" ? overlay(node, siblings) : node;
  } finally {
    ctx.expanding.delete(ref);
  }
}

/** Follows a `$ref` chain just to look at what it leads to; building goes through buildRef. */
function peek(schema: unknown, ctx: Context): SchemaObject | boolean | undefined {
  let current = schema;
  for (let hops = 0; hops < MAX_REF_HOPS; hops++) {
    if (typeof current === "boolean") return current;
    if (!isSchemaObject(current)) return undefined;
    if (typeof current.$ref !== "string") return current;
    current = resolveRef(ctx.root, current.$ref);
  }
  return undefined;
}

const SHAPE_KEYWORDS = ["type", "properties", "items", "prefixItems", "additionalProperties", "patternProperties", "enum", "const"];

function hasShape(schema: SchemaObject): boolean {
  return SHAPE_KEYWORDS.some((k) => schema[k] !== undefined);
}

function buildAllOf(schema: SchemaObject, parts: unknown[], ctx: Context, depth: number, isRoot: boolean): FormNode {
  const { allOf: _allOf, ...outer } = schema;
  // Generators wrap a single reference as allOf: [{ $ref }] to give it a description.
  if (parts.length === 1 && !hasShape(outer)) return overlay(build(parts[0], ctx, depth, isRoot), outer);
  // Otherwise only plain objects merge cleanly: their properties and required lists add up.
  const members = [...parts.map((p) => peek(p, ctx)), ...(hasShape(outer) ? [outer] : [])];
  let properties: Record<string, unknown> = {};
  const required = new Set<string>();
  for (const member of members) {
    if (!isSchemaObject(member) || !isSchemaObject(member.properties)) return combined("allOf");
    if (member.allOf || member.anyOf || member.oneOf || member.patternProperties) return combined("allOf");
    if (member.type !== undefined && member.type !== "object") return combined("allOf");
    // Two members constraining the same key differently do not merge into one input.
    for (const [key, sub] of Object.entries(member.properties)) {
      if (Object.hasOwn(properties, key) && JSON.stringify(properties[key]) !== JSON.stringify(sub)) return combined("allOf");
    }
    properties = { ...properties, ...member.properties };
    if (Array.isArray(member.required)) for (const key of member.required) if (typeof key === "string") required.add(key);
  }
  return build({ ...outer, type: "object", properties, required: [...required] }, ctx, depth, isRoot);
}

function combined(keyword: string): FormNode {
  return json(`The schema combines several shapes (${keyword}): edit this part as JSON.`);
}

function isNullSchema(schema: SchemaObject | boolean | undefined): boolean {
  if (!isSchemaObject(schema)) return false;
  return schema.type === "null" || schema.const === null || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null);
}

function isConstLike(schema: SchemaObject | boolean | undefined): schema is SchemaObject {
  return isSchemaObject(schema) && (schema.const !== undefined || Array.isArray(schema.enum)) && schema.properties === undefined;
}

function buildUnion(schema: SchemaObject, union: unknown, ctx: Context, depth: number, isRoot: boolean): FormNode {
  const keyword = schema.anyOf !== undefined ? "anyOf" : "oneOf";
  if (!Array.isArray(union) || union.length === 0 || (schema.anyOf !== undefined && schema.oneOf !== undefined)) return combined(keyword);
  const { anyOf: _a, oneOf: _o, ...outer } = schema;
  const peeked = union.map((branch) => peek(branch, ctx));
  // Branches that only add constraints ({ required: [...] }, { format }) leave the outer shape
  // as it is: the form shows that shape and the validator checks the rest.
  if (hasShape(outer) && peeked.every((b) => isSchemaObject(b) && !hasShape(b) && !b.anyOf && !b.oneOf && !b.allOf)) {
    return build(outer, ctx, depth, isRoot);
  }
  const nullable = peeked.some(isNullSchema);
  const branches = union.filter((_, i) => !isNullSchema(peeked[i]));
  const shapes = peeked.filter((p) => !isNullSchema(p));
  if (shapes.length === 0) return { ...annotations(outer), kind: "enum", options: [option(null)] };
  // A union of constants is an enum, often with a title per value: labels come from those titles.
  if (shapes.every(isConstLike)) {
    const options = shapes.flatMap((s) => (s.const !== undefined ? [option(s.const, s.title)] : enumOptions(s)));
    return overlay({ kind: "enum", options: dedupe(options) }, outer, nullable);
  }
  if (shapes.length === 1 && outer.properties === undefined && outer.items === undefined) {
    return overlay(build(branches[0], ctx, depth, isRoot), outer, nullable);
  }
  return overlay(combined(keyword), outer, nullable);
}

function label(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function option(value: unknown, title?: unknown): EnumOption {
  return { label: typeof title === "string" && title !== "" ? title : label(value), value };
}

function enumOptions(schema: SchemaObject): EnumOption[] {
  const values = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : [];
  // `enumNames` is a widespread non-standard keyword (react-jsonschema-form) giving a label per value.
  const names = Array.isArray(schema.enumNames) && schema.enumNames.length === values.length ? (schema.enumNames as unknown[]) : [];
  return values.map((value, i) => option(value, names[i]));
}

function dedupe(options: EnumOption[]): EnumOption[] {
  const seen = new Set<string>();
  return options.filter((o) => {
    const key = JSON.stringify(o.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The schema's one type, and whether null is also allowed; `several` lists the types when there are more. */
function typeOf(schema: SchemaObject): { type?: string; nullable: boolean; several?: string[] } {
  const declared =
    typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === "string") : [];
  const nullable = declared.includes("null");
  const types = declared.filter((t) => t !== "null");
  if (types.length > 1) return { nullable, several: types };
  if (types[0] !== undefined) return { type: types[0], nullable };
  if (nullable) return { type: "null", nullable: false };
  if (schema.properties !== undefined || schema.additionalProperties !== undefined || schema.patternProperties !== undefined)
    return { type: "object", nullable };
  if (schema.items !== undefined || schema.prefixItems !== undefined) return { type: "array", nullable };
  return { nullable };
}

function buildPlain(schema: SchemaObject, ctx: Context, depth: number, isRoot: boolean): FormNode {
  if (schema.const !== undefined) return { kind: "enum", options: [option(schema.const)] };
  const { type, nullable, several } = typeOf(schema);
  const withNull = (node: FormNode): FormNode => (nullable ? { ...node, nullable: true } : node);
  if (Array.isArray(schema.enum)) {
    const options = dedupe(enumOptions(schema));
    return options.length === 0 ? json("The enum lists no values, so nothing can be chosen.") : withNull({ kind: "enum", options });
  }
  if (several) return withNull(json(`The value may be any of several types (${several.join(", ")}): edit it as JSON.`));
  switch (type) {
    case undefined:
      return json("The schema does not say what the value is: any JSON value is accepted.");
    case "string":
      return withNull(stringNode(schema));
    case "number":
    case "integer":
      return withNull(numberNode(schema, type === "integer"));
    case "boolean":
      return withNull({ kind: "boolean" });
    case "null":
      return { kind: "enum", options: [option(null)] };
    case "object":
      return withNull(objectNode(schema, ctx, depth, isRoot));
    case "array":
      return withNull(arrayNode(schema, ctx, depth));
    default:
      return json(`Unknown type "${type}": edit the value as JSON.`);
  }
}

function stringNode(schema: SchemaObject): FormNode {
  const node: FormNode = { kind: "string" };
  if (typeof schema.format === "string") node.format = schema.format;
  if (typeof schema.minLength === "number") node.minLength = schema.minLength;
  if (typeof schema.maxLength === "number") node.maxLength = schema.maxLength;
  if (typeof schema.pattern === "string") node.pattern = schema.pattern;
  return node;
}

function numberNode(schema: SchemaObject, integer: boolean): FormNode {
  const node: FormNode = { kind: "number", integer };
  // Draft 6+ writes exclusive bounds as numbers; draft 4 as booleans beside minimum/maximum.
  if (typeof schema.exclusiveMinimum === "number") {
    node.min = schema.exclusiveMinimum;
    node.exclusiveMin = true;
  } else if (typeof schema.minimum === "number") {
    node.min = schema.minimum;
    if (schema.exclusiveMinimum === true) node.exclusiveMin = true;
  }
  if (typeof schema.exclusiveMaximum === "number") {
    node.max = schema.exclusiveMaximum;
    node.exclusiveMax = true;
  } else if (typeof schema.maximum === "number") {
    node.max = schema.maximum;
    if (schema.exclusiveMaximum === true) node.exclusiveMax = true;
  }
  return node;
}

function objectNode(schema: SchemaObject, ctx: Context, depth: number, isRoot: boolean): FormNode {
  if (isSchemaObject(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0) {
    return json("Its keys follow patterns (patternProperties): edit this object as JSON.");
  }
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const declared = Object.keys(properties).length > 0;
  const extra = schema.additionalProperties;
  if (!declared && extra !== undefined && extra !== false) return json("Its keys are free-form (additionalProperties): edit this object as JSON.");
  // A tool with no arguments often sends a bare { type: "object" }: that is an empty form, not JSON.
  if (!declared && schema.properties === undefined && extra === undefined && !isRoot) return json("The object declares no properties: edit it as JSON.");
  if (depth >= MAX_DEPTH) return json("Nested too deeply for a form: edit this part as JSON.");
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : []);
  const fields = Object.entries(properties).map(([key, sub]): FormField => {
    const node = build(sub, ctx, depth + 1);
    const field: FormField = { key, required: required.has(key), node };
    if (node.title !== undefined) field.title = node.title;
    if (node.description !== undefined) field.description = node.description;
    return field;
  });
  return { kind: "object", fields };
}

function arrayNode(schema: SchemaObject, ctx: Context, depth: number): FormNode {
  if (schema.prefixItems !== undefined || Array.isArray(schema.items)) return json("A tuple (a fixed value per position): edit it as JSON.");
  if (schema.items === undefined || schema.items === true) return json("The items may be any JSON: edit the list as JSON.");
  if (depth >= MAX_DEPTH) return json("Nested too deeply for a form: edit this part as JSON.");
  const node: FormNode = { kind: "array", item: build(schema.items, ctx, depth + 1) };
  if (typeof schema.minItems === "number") node.minItems = schema.minItems;
  if (typeof schema.maxItems === "number") node.maxItems = schema.maxItems;
  return node;
}
