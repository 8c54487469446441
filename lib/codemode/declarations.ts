/**
 * The typed tool API: one `declare namespace` per server, one `function` per tool, shared
 * object shapes declared once per namespace. Pure and deterministic: servers sorted by
 * namespace, tools by function name, properties in schema order.
 *
 * Why `declare namespace x{function f()…}` rather than `declare const x:{f()…}`: shared
 * shapes need names, and at top level those names would collide with each other across
 * servers and with the editor's globals (a shape called `Node` or `Response` breaks
 * lib.dom). Inside a namespace they are private to it, and the call is the same `x.f(…)`.
 */
import { toolResourceUri } from "../mcp-apps/tool-ui";
import type { Declarations, GenerateOptions, NamespaceDeclaration, ServerTools, SharedType, ToolDeclaration, ToolDefinition } from "./types";
import type { NameLookup, TsType } from "./ts-type";
import { jsDoc, printDefinition, printType } from "./ts-type";
import { resolveNames } from "./names";
import { schemaToType, type ConvertLimits } from "./schema-to-types";
import { toolDoc } from "./schema-docs";
import { findSharedShapes } from "./shared-types";

/** Defaults of GenerateOptions. */
export const DEFAULT_GENERATE_OPTIONS: Required<GenerateOptions> = {
  maxDepth: 16,
  maxEnumMembers: 64,
  maxNodesPerTool: 20_000,
  markApps: false,
};

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Generates the declarations, name mapping and collisions for all servers. */
export function generateDeclarations(servers: readonly ServerTools[], options: GenerateOptions = {}): Declarations {
  const settings = { ...DEFAULT_GENERATE_OPTIONS, ...options };
  const limits: ConvertLimits = {
    maxDepth: settings.maxDepth,
    maxEnumMembers: settings.maxEnumMembers,
    maxNodes: settings.maxNodesPerTool,
  };
  const resolved = resolveNames(servers);
  const namespaces = servers
    .map((server, s) => buildNamespace(server, resolved.servers[s] ?? "_", resolved.tools[s] ?? [], limits, settings.markApps))
    .sort((a, b) => byCodeUnit(a.namespace, b.namespace));
  return {
    text: namespaces.map((n) => n.text).join("\n"),
    namespaces,
    names: resolved.names,
    collisions: resolved.collisions,
  };
}

interface Converted {
  tool: ToolDefinition;
  name: string;
  input: TsType;
  output?: TsType;
}

function buildNamespace(server: ServerTools, namespace: string, toolNames: readonly string[], limits: ConvertLimits, markApps: boolean): NamespaceDeclaration {
  const converted: Converted[] = server.tools
    .map((tool, t) => {
      const input = schemaToType(tool.inputSchema, limits, { name: `${tool.name} input`, strength: 0, role: "Input" });
      const output =
        tool.outputSchema === undefined ? undefined : schemaToType(tool.outputSchema, limits, { name: `${tool.name} output`, strength: 0, role: "Output" });
      return { tool, name: toolNames[t] ?? "_", input, ...(output && { output }) };
    })
    .sort((a, b) => byCodeUnit(a.name, b.name));
  const shared = findSharedShapes(converted.flatMap((c) => (c.output ? [c.input, c.output] : [c.input])));
  const types: SharedType[] = shared.types.map(({ name, node }) => {
    const references = new Set<string>();
    const body = printDefinition(node, recording(shared.lookup, references));
    return { name, text: `type ${name}=${body}`, references: [...references] };
  });
  const tools = converted.map((c) => declareTool(c, server.name, namespace, shared.lookup, types, markApps));
  const lines = [`declare namespace ${namespace}{`, ...types.map((t) => t.text), ...tools.map((t) => t.text), "}"];
  return { server: server.name, namespace, text: lines.join("\n"), types, tools };
}

function declareTool(c: Converted, server: string, namespace: string, lookup: NameLookup, types: readonly SharedType[], markApps: boolean): ToolDeclaration {
  const references = new Set<string>();
  const look = recording(lookup, references);
  const parameter = parameterText(c.input, look);
  const result = c.output ? printType(c.output, look) : "unknown";
  const hasApp = markApps && toolResourceUri(c.tool) !== undefined;
  const doc = jsDoc(toolDoc(c.tool.description, c.tool.title, c.output !== undefined, hasApp));
  const signature = `function ${c.name}(${parameter}):Promise<${result}>;`;
  return {
    server,
    namespace,
    tool: c.tool.name,
    name: c.name,
    text: doc ? `${doc}\n${signature}` : signature,
    types: closure(references, types),
    hasOutputSchema: c.output !== undefined,
    hasApp,
  };
}

/**
 * `input:{…}`; `input?:{…}` when every property is optional, so `f()` type-checks; nothing at
 * all for a tool that takes no arguments. The sandbox sends `{}` for a call without one.
 */
function parameterText(input: TsType, lookup: NameLookup): string {
  if (input.kind === "object" && input.members.length === 0 && !input.index) return "";
  const optional = input.kind === "object" ? input.members.every((m) => m.optional) : input.kind === "keyword" && input.name === "unknown";
  return `input${optional ? "?" : ""}:${printType(input, lookup)}`;
}

function recording(lookup: NameLookup, into: Set<string>): NameLookup {
  return (object) => {
    const name = lookup(object);
    if (name !== undefined) into.add(name);
    return name;
  };
}

/** The shared types a declaration needs, following references, in declaration order. */
function closure(direct: ReadonlySet<string>, types: readonly SharedType[]): string[] {
  const needed = new Set(direct);
  const byName = new Map(types.map((t) => [t.name, t]));
  const queue = [...direct];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    for (const ref of byName.get(name)?.references ?? []) {
      if (!needed.has(ref)) {
        needed.add(ref);
        queue.push(ref);
      }
    }
  }
  return types.filter((t) => needed.has(t.name)).map((t) => t.name);
}

/** A tool chosen by namespace and function name. */
export interface ToolPick {
  namespace: string;
  name: string;
}

/**
 * Declarations for a subset of tools (tool search results): each namespace that has a pick,
 * with only the shared types those picks need. Namespaces and tools keep the picks' order.
 */
export function declarationsFor(declarations: Declarations, picks: readonly ToolPick[]): string {
  const blocks: string[] = [];
  const order = [...new Set(picks.map((p) => p.namespace))];
  for (const namespace of order) {
    const ns = declarations.namespaces.find((n) => n.namespace === namespace);
    if (!ns) continue;
    const tools = picks
      .filter((p) => p.namespace === namespace)
      .map((p) => ns.tools.find((t) => t.name === p.name))
      .filter((t): t is ToolDeclaration => t !== undefined);
    if (tools.length === 0) continue;
    const needed = new Set(tools.flatMap((t) => t.types));
    const types = ns.types.filter((t) => needed.has(t.name));
    blocks.push([`declare namespace ${namespace}{`, ...types.map((t) => t.text), ...tools.map((t) => t.text), "}"].join("\n"));
  }
  return blocks.join("\n");
}
