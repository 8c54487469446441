/**
 * Schema lint: what in a server's tool definitions will make the model's code worse, each
 * finding with a severity and a one-line fix. Pure; findings come out in a stable order
 * (servers and tools as given, checks in the order below).
 *
 * Severity: "error" when the definition breaks the MCP contract, "warning" when the
 * generated API loses something the model needs, "info" for what only matters elsewhere
 * (strict providers in classic tool calling).
 */
import type { ServerTools, ToolDefinition } from "./types";
import { resolveNames } from "./names";
import { isSchemaObject } from "./schema-ref";
import { walkSchema } from "./schema-walk";

/** How much a finding matters. */
export type LintSeverity = "error" | "warning" | "info";

/** Every check the lint runs. */
export type LintCode =
  | "invalid-input-schema"
  | "broken-ref"
  | "missing-tool-description"
  | "missing-property-description"
  | "missing-output-schema"
  | "schema-less-property"
  | "huge-enum"
  | "deep-nesting"
  | "name-collision"
  | "strict-missing-type"
  | "strict-additional-properties"
  | "strict-unsupported-keyword";

/** One finding. */
export interface LintFinding {
  server: string;
  /** Absent for a finding about the server itself (its name). */
  tool?: string;
  severity: LintSeverity;
  code: LintCode;
  message: string;
  /** One line telling the server author what to change. */
  fix: string;
  /** Where in the schema, as `input.a.b[]`, when it applies to places. */
  paths?: string[];
}

/** Lint thresholds. */
export interface LintOptions {
  /** An enum longer than this is "huge". Default 64, the generator's own cut-off. */
  maxEnumMembers?: number;
  /** Objects nested deeper than this are "deep". Default 5 (OpenAI strict mode's limit too). */
  maxObjectDepth?: number;
}

// Keywords OpenAI's strict mode (structured outputs and strict function calling) rejects.
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
const STRICT_UNSUPPORTED = [
  "allOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "patternProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "contains",
  "minContains",
  "maxContains",
  "uniqueItems",
];
// Schemas that say what they are without `type`.
const TYPED_WITHOUT_TYPE = ["$ref", "anyOf", "oneOf", "allOf", "enum", "const"];
const ANNOTATION_ONLY = new Set(["description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment", "format"]);

const list = (items: readonly string[], max = 5): string =>
  items.length <= max ? items.join(", ") : `${items.slice(0, max).join(", ")} and ${items.length - max} more`;

/** Lints every tool of every server. */
export function lintTools(servers: readonly ServerTools[], options: LintOptions = {}): LintFinding[] {
  const maxEnum = options.maxEnumMembers ?? 64;
  const maxDepth = options.maxObjectDepth ?? 5;
  const findings: LintFinding[] = [];
  const { collisions } = resolveNames(servers);
  for (const server of servers) {
    for (const c of collisions) {
      if (c.kind !== "server" || !c.resolved.some((r) => r.original === server.name)) continue;
      const others = c.resolved.filter((r) => r.original !== server.name).map((r) => JSON.stringify(r.original));
      const mine = c.resolved.find((r) => r.original === server.name)?.sanitised ?? c.identifier;
      findings.push({
        server: server.name,
        severity: "warning",
        code: "name-collision",
        message: `Server name becomes \`${mine}\`: it collides with ${list(others)} after sanitising to \`${c.identifier}\`.`,
        fix: "Give the servers names that differ in letters or digits, not only in punctuation.",
      });
    }
    for (const tool of server.tools) {
      const add = (finding: Omit<LintFinding, "server" | "tool">): void => {
        findings.push({ server: server.name, tool: tool.name, ...finding });
      };
      lintTool(tool, add, maxEnum, maxDepth);
      for (const c of collisions) {
        if (c.kind !== "tool" || c.server !== server.name) continue;
        const mine = c.resolved.find((r) => r.original === tool.name);
        if (!mine) continue;
        const others = c.resolved.filter((r) => r !== mine).map((r) => JSON.stringify(r.original));
        add({
          severity: "warning",
          code: "name-collision",
          message: `Called as \`${mine.sanitised}\`: ${JSON.stringify(tool.name)} collides with ${list(others)} after sanitising to \`${c.identifier}\`.`,
          fix: "Rename one of the tools so the names differ in letters or digits, not only in punctuation.",
        });
      }
    }
  }
  return findings;
}

function lintTool(tool: ToolDefinition, add: (f: Omit<LintFinding, "server" | "tool">) => void, maxEnum: number, maxDepth: number): void {
  const input: unknown = tool.inputSchema;
  if (!isSchemaObject(input) || input.type !== "object") {
    add({
      severity: "error",
      code: "invalid-input-schema",
      message: 'inputSchema is not a JSON Schema object with type "object", as MCP requires.',
      fix: 'Declare inputSchema as { "type": "object", "properties": { … } }.',
    });
  }
  if (!tool.description?.trim()) {
    add({
      severity: "warning",
      code: "missing-tool-description",
      message: "The tool has no description.",
      fix: "Add a description saying what the tool does, what it returns and when to use it.",
    });
  }
  // Sets: branches of a union share their parent's path, and a path is worth saying once.
  const undescribed = new Set<string>();
  const schemaLess = new Set<string>();
  const untyped = new Set<string>();
  const open = new Set<string>();
  const unsupported = new Map<string, Set<string>>();
  const enums: Array<{ path: string; size: number }> = [];
  let deepest = { depth: 0, path: "" };

  const check = (schema: unknown, rootPath: string, strict: boolean): void => {
    const broken = walkSchema(isSchemaObject(schema) || typeof schema === "boolean" ? schema : {}, rootPath, (v) => {
      const s = v.schema;
      if (v.objectDepth > deepest.depth) deepest = { depth: v.objectDepth, path: v.path };
      if (v.property !== undefined) {
        if (s === true || (isSchemaObject(s) && Object.keys(s).every((k) => ANNOTATION_ONLY.has(k)))) schemaLess.add(v.path);
        if (strict && (!isSchemaObject(s) || typeof s.description !== "string" || s.description.trim() === "") && !(isSchemaObject(s) && "$ref" in s)) {
          undescribed.add(v.path);
        }
      }
      if (!isSchemaObject(s)) return;
      if (Array.isArray(s.enum) && s.enum.length > maxEnum) enums.push({ path: v.path, size: s.enum.length });
      if (!strict) return;
      if (!("type" in s) && !TYPED_WITHOUT_TYPE.some((k) => k in s) && Object.keys(s).some((k) => !ANNOTATION_ONLY.has(k))) untyped.add(v.path);
      const isObject = s.type === "object" || (Array.isArray(s.type) && s.type.includes("object")) || "properties" in s;
      if (isObject && s.additionalProperties !== false) open.add(v.path);
      for (const k of STRICT_UNSUPPORTED) if (k in s) unsupported.set(k, (unsupported.get(k) ?? new Set()).add(v.path));
    });
    for (const b of broken) {
      add({
        severity: "warning",
        code: "broken-ref",
        paths: [b.path],
        message: `${b.reason === "external" ? "External" : "Unresolvable"} $ref ${JSON.stringify(b.ref)} at ${b.path}: typed as unknown.`,
        fix: "Inline the definition, or put it under $defs and refer to it as #/$defs/Name.",
      });
    }
  };
  check(input, "input", true);
  if (tool.outputSchema === undefined) {
    add({
      severity: "warning",
      code: "missing-output-schema",
      message: "No outputSchema: the code gets `unknown` and must inspect each result before using it.",
      fix: "Declare an outputSchema and return the same data as structuredContent.",
    });
  } else {
    check(tool.outputSchema, "output", false);
  }

  report(
    add,
    "warning",
    "missing-property-description",
    [...undescribed],
    (n, at) => `${n} input ${n === 1 ? "property has" : "properties have"} no description: ${at}.`,
    "Describe each property: its meaning, unit and accepted values.",
  );
  report(
    add,
    "warning",
    "schema-less-property",
    [...schemaLess],
    (_, at) => `Typed as unknown, the schema says nothing: ${at}.`,
    "Give each of these a type (and items or properties where it is a container).",
  );
  for (const e of enums) {
    add({
      severity: "warning",
      code: "huge-enum",
      paths: [e.path],
      message: `Enum of ${e.size} values at ${e.path}: typed as its base type, the values are not shown.`,
      fix: "Take a plain string and offer a lookup or search tool for the valid values.",
    });
  }
  if (deepest.depth > maxDepth) {
    add({
      severity: "warning",
      code: "deep-nesting",
      paths: [deepest.path],
      message: `Objects nest ${deepest.depth} deep (at ${deepest.path}); more than ${maxDepth} is hard to fill in correctly.`,
      fix: "Flatten the schema: lift nested objects into separate parameters or separate tools.",
    });
  }
  report(
    add,
    "info",
    "strict-missing-type",
    [...untyped],
    (_, at) => `No \`type\` at ${at}; strict providers (OpenAI strict mode) reject such schemas.`,
    "Add an explicit type to each of these schemas.",
  );
  report(
    add,
    "info",
    "strict-additional-properties",
    [...open],
    (_, at) => `additionalProperties is not false at ${at}; OpenAI strict mode requires it on every object.`,
    'Set "additionalProperties": false on every object schema.',
  );
  if (unsupported.size > 0) {
    const paths = [...new Set([...unsupported.values()].flatMap((set) => [...set]))];
    add({
      severity: "info",
      code: "strict-unsupported-keyword",
      paths,
      message: `Keywords OpenAI strict mode rejects: ${[...unsupported.keys()].join(", ")} (at ${list(paths)}).`,
      fix: "Rewrite without them (anyOf instead of oneOf, merged properties instead of allOf).",
    });
  }
}

/** Adds one finding for a set of places, when there are any. */
function report(
  add: (f: Omit<LintFinding, "server" | "tool">) => void,
  severity: LintSeverity,
  code: LintCode,
  paths: string[],
  message: (count: number, places: string) => string,
  fix: string,
): void {
  if (paths.length > 0) add({ severity, code, paths, message: message(paths.length, list(paths)), fix });
}
