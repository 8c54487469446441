/**
 * An MCP App as a recorded run keeps it (docs/mcp-apps.md, "MCP Apps"), so the run's calls
 * can show their app where the server is not connected: a replay, an imported run file, a
 * shared link. The tool's definition (what the app is told about its tool) and the resource's
 * HTML and checked policy, keyed by server and tool. Pure.
 */
import type { Tool } from "@modelcontextprotocol/client";
import type { AppResource } from "./app-resource";
import { appCspFromMeta } from "./frame-policy";
import { MAX_APP_HTML } from "./app-resource";
import { toolResourceUri } from "./tool-ui";

/** The tool as the app is told about it. */
export type RecordedTool = Pick<Tool, "name" | "title" | "description" | "inputSchema" | "_meta">;

export interface RecordedApp {
  tool: RecordedTool;
  resource: AppResource;
}

/** The key of a tool's app in a record: server and tool, as registered. */
export const appKey = (server: string, tool: string) => `${server}\u0000${tool}`;

/** What a record keeps of a tool's app. */
export function recordApp(tool: Tool, resource: AppResource): RecordedApp {
  const { name, title, description, inputSchema, _meta } = tool;
  return {
    tool: { name, inputSchema, ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}), ...(_meta ? { _meta } : {}) },
    resource,
  };
}

/**
 * A recorded app read back from a file or a link (anyone's to write): undefined unless it is
 * one, its HTML within the cap, and its policy checked again as a server's would be.
 */
export function readRecordedApp(value: unknown, appOrigin?: string): RecordedApp | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const { tool, resource } = value as { tool?: unknown; resource?: unknown };
  if (tool === null || typeof tool !== "object" || resource === null || typeof resource !== "object") return undefined;
  const t = tool as Record<string, unknown>;
  const r = resource as Record<string, unknown>;
  if (typeof t.name !== "string" || typeof r.uri !== "string" || typeof r.html !== "string" || r.html.length > MAX_APP_HTML) return undefined;
  const definition = { ...(t as RecordedTool), inputSchema: (t.inputSchema ?? { type: "object" }) as Tool["inputSchema"] };
  if (toolResourceUri(definition) !== r.uri) return undefined;
  const csp = r.csp as { connect?: unknown; resource?: unknown; frame?: unknown } | undefined;
  return {
    tool: definition,
    resource: {
      uri: r.uri,
      html: r.html,
      csp: appCspFromMeta({ connectDomains: csp?.connect, resourceDomains: csp?.resource, frameDomains: csp?.frame }, appOrigin),
      ...(typeof r.prefersBorder === "boolean" ? { prefersBorder: r.prefersBorder } : {}),
    },
  };
}
