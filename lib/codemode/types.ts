/**
 * Shared shapes of the code-mode tool API: what goes in (MCP tool definitions grouped by
 * server) and what comes out (declarations, name mappings, collisions). Types only.
 */

/** A JSON Schema as a server sent it: read defensively, since anything may be in there. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/**
 * The fields of an MCP `Tool` the generator reads. The SDK's `Tool` type is assignable to
 * it (a test checks), so callers pass `listTools()` results straight in.
 */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { readonly [keyword: string]: unknown };
  outputSchema?: { readonly [keyword: string]: unknown };
  annotations?: { readonly [hint: string]: unknown };
  /** Read for the tool's MCP App (`_meta.ui`, lib/mcp-apps/tool-ui.ts). */
  _meta?: { readonly [key: string]: unknown };
}

/** One connected server and the tools it listed. */
export interface ServerTools {
  /** The server's name as the person registered it; sanitised into the namespace name. */
  name: string;
  /** A namespace taken as is (the page's skills, lib/skills/skill.ts); it must be reserved so no server's name becomes it. */
  namespace?: string;
  tools: readonly ToolDefinition[];
}

/** How one original name became an identifier in the generated API. */
export interface NameMapping {
  kind: "server" | "tool";
  /** Original server name (for a server entry, the same as `original`). */
  server: string;
  original: string;
  sanitised: string;
}

/** Several originals that sanitised to the same identifier, and what each became. */
export interface NameCollision {
  kind: "server" | "tool";
  /** Original server name for tool collisions; absent for server collisions. */
  server?: string;
  /** The identifier they all wanted. */
  identifier: string;
  /** Original → final identifier, in the deterministic order the suffixes were given. */
  resolved: Array<{ original: string; sanitised: string }>;
}

/** One tool's declaration inside its namespace. */
export interface ToolDeclaration {
  server: string;
  namespace: string;
  tool: string;
  /** The sanitised function name: call it as `namespace.name(...)`. */
  name: string;
  /** JSDoc and `function` line(s), without the shared types it references. */
  text: string;
  /** Names of the namespace's shared types this declaration needs, transitively. */
  types: string[];
  hasOutputSchema: boolean;
  /** The tool has an MCP App: calling it shows the person its UI. */
  hasApp: boolean;
}

/** A shared object shape declared once per namespace as `type Name={…}`. */
export interface SharedType {
  name: string;
  text: string;
  /** Other shared types its body references. */
  references: string[];
}

/** One server's namespace. */
export interface NamespaceDeclaration {
  server: string;
  namespace: string;
  /** The whole `declare namespace x{…}` block. */
  text: string;
  types: SharedType[];
  tools: ToolDeclaration[];
}

/** The result of generating the tool API for a set of servers. */
export interface Declarations {
  /** Every namespace, one after the other: the text given to the model and to Monaco. */
  text: string;
  namespaces: NamespaceDeclaration[];
  names: NameMapping[];
  collisions: NameCollision[];
}

/** Limits and switches of the schema → TypeScript conversion. */
export interface GenerateOptions {
  /** Schema nesting depth (each property, item or branch is one level) past which a schema becomes `unknown`. Default 16. */
  maxDepth?: number;
  /** An enum with more members than this is typed by its base type, with a note. Default 64. */
  maxEnumMembers?: number;
  /** Type nodes built per tool before the rest becomes `unknown` (exponential `$ref` fans). Default 20 000. */
  maxNodesPerTool?: number;
  /** Mark tools that have an MCP App (`@app`): only where the host shows apps (the page). Default false. */
  markApps?: boolean;
}
