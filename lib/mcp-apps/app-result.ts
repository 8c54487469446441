/**
 * A tool result for an MCP App from what the page kept of a call (docs/mcp-apps.md, "MCP
 * Apps"). A program's calls are recorded as the program saw them, unwrapped (the structured
 * content, else the text parsed as JSON, else the text), so an app opened from the timeline or a
 * chat gets that value back as a result: an object as `structuredContent` with its JSON as text,
 * anything else as text; an error as an `isError` result. Pure.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";

/** The result an app is given for a call that ended with `value` or `error`. */
export function resultForApp(outcome: { value?: unknown; error?: string }): CallToolResult {
  if (outcome.error !== undefined) return { content: [{ type: "text", text: outcome.error }], isError: true };
  const value = outcome.value;
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  const structured = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  return { content: [{ type: "text", text }], ...(structured ? { structuredContent: structured } : {}) };
}
