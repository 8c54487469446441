/**
 * JSON Schema checks for tool calls: arguments against `inputSchema` before a call, and
 * `structuredContent` against `outputSchema` after it. Pure (ajv compiles to functions, no I/O).
 *
 * Schemas come from servers we do not control, so compiling must never throw: a schema that
 * does not compile (a `$ref` to nowhere, a misspelt type) becomes a finding and the value is
 * let through unchecked. Dialect: `$schema` decides; without one we try draft 2020-12 (the MCP
 * default since 2025-11-25) and fall back to draft-07, which most generators still emit.
 */
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

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

/** A compiled schema, or why it could not be compiled. */
export type Compiled = { ok: true; validate: ValidateFunction; warnings: string[] } | { ok: false; message: string };

const MAX_CACHED = 500;
const MAX_ISSUES = 8;

function makeAjv<T extends Ajv | Ajv2020>(instance: T): T {
  addFormats(instance);
  return instance;
}
// validateSchema on: a malformed schema fails at compile time, where we turn it into a finding.
// addUsedSchema off: two servers may reuse an `$id` (nested ones too); a registry would reject the second.
const OPTIONS = { strict: false, allErrors: true, validateFormats: true, validateSchema: true, addUsedSchema: false } as const;
const ajv2020 = makeAjv(new Ajv2020(OPTIONS));
const ajv07 = makeAjv(new Ajv(OPTIONS));

// Keyed by schema text: servers send a fresh object on every tools/list, so identity would miss.
// `release` drops ajv's own per-object cache entry when ours evicts, so memory stays bounded.
const cache = new Map<string, { compiled: Compiled; release: () => void }>();

function dialectsFor(schema: Record<string, unknown>): Array<Ajv | Ajv2020> {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[67]/.test(declared)) return [ajv07];
  if (/2020-12|2019-09/.test(declared)) return [ajv2020];
  return [ajv2020, ajv07];
}

function compileOnce(schema: unknown): { compiled: Compiled; release: () => void } {
  const none = () => {};
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    return { compiled: { ok: false, message: "the schema is not a JSON object" }, release: none };
  }
  // We pick the dialect ourselves; an unknown `$schema` URI or a repeated `$id` would make ajv throw.
  const { $schema: _ignored, $id: _id, ...body } = schema as Record<string, unknown>;
  const warnings = body.type === undefined ? ["the schema has no top-level type (MCP expects type: object)"] : [];
  let lastError = "";
  for (const ajv of dialectsFor(schema as Record<string, unknown>)) {
    try {
      return { compiled: { ok: true, validate: ajv.compile(body), warnings }, release: () => ajv.removeSchema(body) };
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      ajv.removeSchema(body);
    }
  }
  return { compiled: { ok: false, message: `the schema does not compile: ${lastError}` }, release: none };
}

/** Compiles a schema once per distinct text (bounded cache); never throws. */
export function compileSchema(schema: unknown): Compiled {
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
    return hit.compiled;
  }
  const entry = compileOnce(schema);
  cache.set(key, entry);
  if (cache.size > MAX_CACHED) {
    const [oldestKey, oldest] = cache.entries().next().value ?? [];
    if (oldestKey !== undefined) cache.delete(oldestKey);
    oldest?.release();
  }
  return entry.compiled;
}

function pointerToPath(root: string, pointer: string): string {
  let out = root;
  for (const raw of pointer.split("/").slice(1)) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
  }
  return out;
}

function describe(error: ErrorObject, root: string): ValidationIssue {
  const path = pointerToPath(root, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { path: `${path}.${String(params.missingProperty)}`, message: "is required" };
    case "additionalProperties":
      return { path, message: `has an unknown property "${String(params.additionalProperty)}"` };
    case "enum":
      return { path, message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
    case "const":
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}` };
    default:
      return { path, message: error.message ?? `fails "${error.keyword}"` };
  }
}

function issuesOf(errors: readonly ErrorObject[] | null | undefined, root: string): ValidationIssue[] {
  const seen = new Set<string>();
  const out: ValidationIssue[] = [];
  for (const error of errors ?? []) {
    const issue = describe(error, root);
    const key = `${issue.path} ${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
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
  if (compiled.validate(args ?? {})) return { ok: true, warnings: compiled.warnings };
  const issues = issuesOf(compiled.validate.errors, "arguments");
  return { ok: false, message: formatIssues("Invalid arguments", issues), issues };
}

/** Checks `structuredContent` against the tool's `outputSchema`; returns findings, never throws. */
export function validateStructuredContent(schema: unknown, value: unknown): OutputFinding[] {
  const compiled = compileSchema(schema);
  if (!compiled.ok) return [{ kind: "schema", path: "outputSchema", message: `not checked: ${compiled.message}` }];
  const warnings: OutputFinding[] = compiled.warnings.map((message) => ({ kind: "schema", path: "outputSchema", message }));
  if (compiled.validate(value)) return warnings;
  const mismatches = issuesOf(compiled.validate.errors, "structuredContent").map((i): OutputFinding => ({ kind: "mismatch", ...i }));
  return [...warnings, ...mismatches];
}
