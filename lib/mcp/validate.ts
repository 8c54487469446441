/**
 * JSON Schema checks for tool calls: arguments against `inputSchema` before a call, and
 * `structuredContent` against `outputSchema` after it. Pure.
 *
 * The validator interprets schemas (@cfworker/json-schema, the one the MCP SDK offers for
 * runtimes without eval) instead of compiling them to code as Ajv does: the page's
 * Content-Security-Policy forbids eval (docs/deploying.md, "Security"), and under it Ajv
 * could compile nothing, so every check was silently skipped.
 *
 * Schemas come from servers we do not control, so preparing one must never throw: a schema
 * that is broken (a `$ref` to nowhere, a misspelt type) becomes a finding and the value is let
 * through unchecked. Dialect: `$schema` decides; without one, draft 2020-12 (the MCP default
 * since 2025-11-25), or draft-07 when the schema uses draft-07-only forms (array `items`).
 */
import { Validator } from "@cfworker/json-schema";
import type { OutputUnit, SchemaDraft } from "@cfworker/json-schema";
import { messageOf } from "../text/error-message";

/** One problem with a value, at a readable path such as `arguments.items[0].qty`. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** Outcome of an argument check. `warnings` name schema problems that made us skip checking. */
export type ArgumentCheck = { ok: true; warnings: string[] } | { ok: false; message: string; issues: ValidationIssue[] };

/** A flag raised about a tool's output: the value does not match, or the schema itself is broken. */
export interface OutputFinding {
  kind: "mismatch" | "schema";
  path: string;
  message: string;
}

/** Checks a value against a prepared schema; the same function for the same schema text. */
export type SchemaCheck = (value: unknown, root: string) => ValidationIssue[];

/** A prepared schema, or why it could not be prepared. */
export type Compiled = { ok: true; validate: SchemaCheck; warnings: string[] } | { ok: false; message: string };

const MAX_CACHED = 500;
const MAX_ISSUES = 8;
const JSON_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

// Keyed by schema text: servers send a fresh object on every tools/list, so identity alone would
// miss. Identity is the fast path: the same tool's schema object is checked on every call, and
// stringifying it each time cost more than validating.
const cache = new Map<string, Compiled>();
const byObject = new WeakMap<object, Compiled>();

function draftFor(schema: Record<string, unknown>): SchemaDraft {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[67]/.test(declared)) return "7";
  if (/draft-04/.test(declared)) return "4";
  if (/2019-09/.test(declared)) return "2019-09";
  if (/2020-12/.test(declared)) return "2020-12";
  return JSON.stringify(schema).includes('"items":[') ? "7" : "2020-12";
}

function resolvePointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(part in node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

// Keywords whose value maps names to schemas: the names are not keywords themselves.
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"]);
// Keywords whose values are data, not schemas.
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "required"]);

/** What the validator would trip over: unknown types and local `$ref`s that point nowhere. */
function schemaProblem(root: Record<string, unknown>): string | undefined {
  const stack: unknown[] = [root];
  let visited = 0;
  while (stack.length > 0 && visited++ < 50_000) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...(node as unknown[]));
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    const schema = node as Record<string, unknown>;
    const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : schema.type === undefined ? [] : [schema.type];
    const unknown = types.find((t) => typeof t !== "string" || !JSON_TYPES.has(t));
    if (unknown !== undefined) return `unknown type ${JSON.stringify(unknown)}`;
    if (typeof schema.$ref === "string" && schema.$ref.startsWith("#") && resolvePointer(root, schema.$ref.slice(1)) === undefined) {
      return `$ref "${schema.$ref}" points to a missing definition`;
    }
    for (const [key, value] of Object.entries(schema)) {
      if (DATA_KEYWORDS.has(key) || value === null || typeof value !== "object") continue;
      if (SCHEMA_MAPS.has(key) && !Array.isArray(value)) stack.push(...Object.values(value as Record<string, unknown>));
      else stack.push(value);
    }
  }
  return undefined;
}

function pointerToPath(root: string, pointer: string): string {
  let out = root;
  for (const raw of pointer.replace(/^#/, "").split("/").slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
  }
  return out;
}

// Keywords that only say "something below failed"; the failure below is reported on its own.
const WRAPPERS = new Set([
  "properties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "$ref",
  "allOf",
  "false",
  "dependentSchemas",
  "patternProperties",
]);

function describe(unit: OutputUnit, root: string, schema: Record<string, unknown>): ValidationIssue | undefined {
  if (WRAPPERS.has(unit.keyword)) return undefined;
  const path = pointerToPath(root, unit.instanceLocation);
  const quoted = /"([^"]*)"/.exec(unit.error)?.[1] ?? "";
  const keywordValue = () => resolvePointer(schema, unit.keywordLocation.replace(/^#/, ""));
  switch (unit.keyword) {
    case "required":
      return { path: `${path}.${quoted}`, message: "is required" };
    case "additionalProperties":
    case "unevaluatedProperties":
      return { path, message: `has an unknown property "${quoted}"` };
    case "type": {
      const expected = /Expected "([^"]*)"/.exec(unit.error)?.[1] ?? quoted;
      return { path, message: `must be ${expected.split(",").join(" or ")}` };
    }
    case "enum": {
      const allowed = keywordValue();
      return { path, message: `must be one of ${Array.isArray(allowed) ? allowed.map((v) => JSON.stringify(v)).join(", ") : "the listed values"}` };
    }
    case "const":
      return { path, message: `must be ${JSON.stringify(keywordValue())}` };
    case "format":
      return { path, message: `must match format "${quoted}"` };
    default:
      return { path, message: unit.error.replace(/^Instance /, "").replace(/\.$/, "") };
  }
}

function prepare(schema: unknown): Compiled {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return { ok: false, message: "the schema is not a JSON object" };
  const record = schema as Record<string, unknown>;
  const problem = schemaProblem(record);
  if (problem !== undefined) return { ok: false, message: `the schema does not compile: ${problem}` };
  // We pick the dialect ourselves; an unknown `$schema` URI must not decide it.
  const { $schema: _ignored, ...body } = record;
  let validator: Validator;
  try {
    validator = new Validator(body, draftFor(record), false);
  } catch (error) {
    return { ok: false, message: `the schema does not compile: ${messageOf(error)}` };
  }
  const warnings = body.type === undefined ? ["the schema has no top-level type (MCP expects type: object)"] : [];
  const validate: SchemaCheck = (value, root) => {
    // The validator has no answer for `undefined` (no value at all); null fails the same way.
    const result = validator.validate(value === undefined ? null : value);
    if (result.valid) return [];
    const seen = new Set<string>();
    const out: ValidationIssue[] = [];
    for (const unit of result.errors) {
      const issue = describe(unit, root, body);
      if (!issue) continue;
      const key = `${issue.path} ${issue.message}`;
      if (!seen.has(key)) out.push(issue);
      seen.add(key);
    }
    return out.length > 0 ? out : [{ path: root, message: "does not match the schema" }];
  };
  return { ok: true, validate, warnings };
}

/** Prepares a schema once per distinct text (bounded cache); never throws. */
export function compileSchema(schema: unknown): Compiled {
  const known = schema !== null && typeof schema === "object" ? byObject.get(schema) : undefined;
  if (known) return known;
  const compiled = compileByText(schema);
  if (schema !== null && typeof schema === "object") byObject.set(schema, compiled);
  return compiled;
}

function compileByText(schema: unknown): Compiled {
  let key: string;
  try {
    key = JSON.stringify(schema) ?? "undefined";
  } catch {
    return { ok: false, message: "the schema is not serialisable JSON" };
  }
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const compiled = prepare(schema);
  cache.set(key, compiled);
  if (cache.size > MAX_CACHED) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  return compiled;
}

/** Runs a prepared check; a schema the validator still cannot follow (a remote `$ref`) skips the check. */
function run(compiled: Extract<Compiled, { ok: true }>, value: unknown, root: string): { issues: ValidationIssue[] } | { skipped: string } {
  try {
    return { issues: compiled.validate(value, root) };
  } catch (error) {
    return { skipped: `the schema does not compile: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
}

/** Formats issues as one line a model can act on: "Invalid arguments: arguments.weightKg must be number; …". */
export function formatIssues(title: string, issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES).map((i) => `${i.path} ${i.message}`);
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : "";
  return `${title}: ${shown.join("; ")}${more}`;
}

/** Checks tool arguments against the tool's `inputSchema`; a broken schema skips the check with a warning. */
export function validateArguments(schema: unknown, args: unknown): ArgumentCheck {
  const compiled = compileSchema(schema);
  if (!compiled.ok) return { ok: true, warnings: [`inputSchema not checked: ${compiled.message}`] };
  const outcome = run(compiled, args ?? {}, "arguments");
  if ("skipped" in outcome) return { ok: true, warnings: [`inputSchema not checked: ${outcome.skipped}`] };
  if (outcome.issues.length === 0) return { ok: true, warnings: compiled.warnings };
  return { ok: false, message: formatIssues("Invalid arguments", outcome.issues), issues: outcome.issues };
}

/** Checks `structuredContent` against the tool's `outputSchema`; returns findings, never throws. */
export function validateStructuredContent(schema: unknown, value: unknown): OutputFinding[] {
  const compiled = compileSchema(schema);
  if (!compiled.ok) return [{ kind: "schema", path: "outputSchema", message: `not checked: ${compiled.message}` }];
  const warnings: OutputFinding[] = compiled.warnings.map((message) => ({ kind: "schema", path: "outputSchema", message }));
  const outcome = run(compiled, value, "structuredContent");
  if ("skipped" in outcome) return [...warnings, { kind: "schema", path: "outputSchema", message: `not checked: ${outcome.skipped}` }];
  return [...warnings, ...outcome.issues.map((i): OutputFinding => ({ kind: "mismatch", ...i }))];
}
