/**
 * Which tools an MCP App may call (docs/mcp-apps.md, "MCP Apps"): only its own server's, and
 * only those whose visibility includes "app". What needs the person's approval is decided where
 * every call's is (Workbench.callForApp, through the host functions). Pure.
 */
import type { Tool } from "@modelcontextprotocol/client";
import { callableByApp } from "./tool-ui";

/** Why the app may not call `name` on its server (listed as `tools`), or undefined when it may. */
export function appCallRefusal(tools: readonly Tool[], name: string): string | undefined {
  const tool = tools.find((t) => t.name === name);
  if (!tool) return `The server has no tool "${name}".`;
  if (!callableByApp(tool)) return `"${name}" is not visible to apps (its _meta.ui.visibility leaves out "app").`;
  return undefined;
}
