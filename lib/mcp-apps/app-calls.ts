/**
 * Which tools an MCP App may call (docs/ARCHITECTURE.md, "MCP Apps"): only its own server's,
 * only those whose visibility includes "app", and a destructive one only after the person
 * allows it. Pure.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { callableByApp } from "./tool-ui";

/** Why the app may not call `name` on its server (listed as `tools`), or undefined when it may. */
export function appCallRefusal(tools: readonly Tool[], name: string): string | undefined {
  const tool = tools.find((t) => t.name === name);
  if (!tool) return `The server has no tool "${name}".`;
  if (!callableByApp(tool)) return `"${name}" is not visible to apps (its _meta.ui.visibility leaves out "app").`;
  return undefined;
}

/** Whether a call from an app waits for the person: the tool says it is destructive, or the person marked it. */
export function appCallNeedsApproval(tool: Tool | undefined, marked: boolean): boolean {
  return marked || tool?.annotations?.destructiveHint === true;
}
