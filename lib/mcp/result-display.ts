/** How tool results are shown to a person: MCP media content as media, JSON text parsed. Pure. */
/**
 * MCP image and audio content (`{ type: "image", data, mimeType }`) as an image or a player,
 * from a data URL: the browser decodes it as media, never as a document, and the page's CSP
 * allows data: only for img and media.
 */
export function mediaOf(value: unknown): { kind: "image" | "audio"; src: string; mimeType: string } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as { type?: unknown; data?: unknown; mimeType?: unknown };
  if ((v.type !== "image" && v.type !== "audio") || typeof v.data !== "string" || typeof v.mimeType !== "string") return undefined;
  if (!new RegExp(`^${v.type}/[\\w.+-]+$`).test(v.mimeType) || !/^[A-Za-z0-9+/=\s]*$/.test(v.data)) return undefined;
  return { kind: v.type, src: `data:${v.mimeType};base64,${v.data.replace(/\s+/g, "")}`, mimeType: v.mimeType };
}

/**
 * A tool result's content for reading: text items whose text is JSON are shown parsed (under
 * "text (JSON)"), so a person does not read JSON escaped inside a JSON string; every other item
 * is unchanged.
 */
export function readableContent(content: readonly unknown[]): unknown[] {
  return content.map((item) => {
    const v = item as { type?: unknown; text?: unknown } | null;
    if (typeof v !== "object" || v === null || v.type !== "text" || typeof v.text !== "string") return item;
    const text = v.text.trim();
    if (!(text.startsWith("{") || text.startsWith("["))) return item;
    try {
      const { text: _text, ...rest } = v as Record<string, unknown>;
      return { ...rest, "text (JSON)": JSON.parse(text) as unknown };
    } catch {
      return item;
    }
  });
}
