/**
 * What a tool says about its MCP App (the `io.modelcontextprotocol/ui` extension; see
 * docs/mcp-apps.md, "MCP Apps"): the `ui://` resource its UI lives in and who may call it.
 * Read here rather than through `@modelcontextprotocol/ext-apps/app-bridge` because the page's
 * catalog needs it on the start path and the bridge's module (with its schemas) loads only when
 * an app first shows; a unit test checks these readings agree with the extension's own helpers.
 * Pure.
 */
import type { Tool } from "@modelcontextprotocol/client";

/** The extension's id, the key of its capability under `extensions`. */
export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";
/** The MIME type of an app's HTML resource. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** Who may call a tool: the model (and programs), the app, or both (the default). */
export type ToolVisibility = "model" | "app";

/** A tool's UI, when it has one. */
export interface ToolUi {
  resourceUri: string;
  visibility: readonly ToolVisibility[];
}

function uiMeta(tool: Pick<Tool, "_meta">): Record<string, unknown> | undefined {
  const ui = tool._meta?.ui;
  return ui !== null && typeof ui === "object" && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
}

/** The tool's `ui://` resource URI (nested `_meta.ui.resourceUri`, or the older flat `_meta["ui/resourceUri"]`); undefined when absent or not a ui:// URI. */
export function toolResourceUri(tool: Pick<Tool, "_meta">): string | undefined {
  const nested = uiMeta(tool)?.resourceUri;
  const uri = nested !== undefined ? nested : tool._meta?.["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : undefined;
}

/** Who may call the tool; ["model", "app"] unless `_meta.ui.visibility` lists a narrower set. */
export function toolVisibility(tool: Pick<Tool, "_meta">): readonly ToolVisibility[] {
  const listed = uiMeta(tool)?.visibility;
  if (!Array.isArray(listed)) return ["model", "app"];
  return (["model", "app"] as const).filter((v) => listed.includes(v));
}

/** The tool's UI, or undefined. */
export function toolUi(tool: Pick<Tool, "_meta">): ToolUi | undefined {
  const resourceUri = toolResourceUri(tool);
  return resourceUri === undefined ? undefined : { resourceUri, visibility: toolVisibility(tool) };
}

/** False for tools only an app may call: the model, programs and classic mode never see them. */
export function visibleToModel(tool: Pick<Tool, "_meta">): boolean {
  return toolVisibility(tool).includes("model");
}

/** True when an app may call the tool. */
export function callableByApp(tool: Pick<Tool, "_meta">): boolean {
  return toolVisibility(tool).includes("app");
}

/** The tools the model and programs see: `tools` itself when none is app-only. */
export function modelTools<T extends Pick<Tool, "_meta">>(tools: readonly T[]): readonly T[] {
  return tools.every(visibleToModel) ? tools : tools.filter(visibleToModel);
}
