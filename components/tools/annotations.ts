import type { BadgeTone } from "@/components/ui/Badge";
import type { Tool } from "@modelcontextprotocol/client";
import { toolUi } from "@/lib/mcp-apps/tool-ui";

/** Badges for a tool's MCP annotations (hints from the server: shown, never trusted for security). */
export function annotationBadges(annotations: Record<string, unknown> | undefined): Array<{ label: string; title: string; tone: BadgeTone }> {
  if (!annotations) return [];
  const badges: Array<{ label: string; title: string; tone: BadgeTone }> = [];
  if (annotations.readOnlyHint === true) badges.push({ label: "read-only", title: "readOnlyHint: does not modify its environment", tone: "ok" });
  if (annotations.destructiveHint === true) badges.push({ label: "destructive", title: "destructiveHint: may perform destructive updates", tone: "error" });
  if (annotations.idempotentHint === true) badges.push({ label: "idempotent", title: "idempotentHint: repeated calls have no extra effect", tone: "neutral" });
  if (annotations.openWorldHint === true) badges.push({ label: "open-world", title: "openWorldHint: talks to external entities", tone: "neutral" });
  return badges;
}

/** The annotation badges, plus "app" for a tool with an MCP App and "app only" for one the model never sees. */
export function toolBadges(tool: Tool): Array<{ label: string; title: string; tone: BadgeTone }> {
  const badges = annotationBadges(tool.annotations);
  const ui = toolUi(tool);
  if (ui) badges.push({ label: "app", title: `Has an MCP App: ${ui.resourceUri}. A test call shows it.`, tone: "neutral" });
  if (ui && !ui.visibility.includes("model"))
    badges.push({ label: "app only", title: "Only its app may call it: the model, programs and classic mode do not see it.", tone: "warn" });
  return badges;
}
