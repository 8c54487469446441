import type { BadgeTone } from "@/components/ui/Badge";

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
