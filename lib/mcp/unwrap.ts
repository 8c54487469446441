/**
 * Turns an MCP tool result into the value code mode's programs see. Pure.
 *
 * Rules, in order (docs/sandbox.md, "Tool API"):
 * 1. `isError: true` → throws `ToolError` with the server's text as its message.
 * 2. `structuredContent` present → that object, as is.
 * 3. No content → null (JSON-safe, unlike undefined, so it survives postMessage and replay).
 * 4. Only text items → their text joined with "\n", parsed as JSON when it parses, else the text.
 *    Joining first means a JSON document split over several items still parses.
 * 5. Any image, audio, resource or resource_link item → the content array unchanged: there is
 *    no faithful way to flatten binary or linked content into one value, and keeping the items
 *    lets the program inspect `type`, `mimeType` and `uri` itself.
 */

/** One item of a tool result's `content`, as loose as servers send it. */
export interface ContentItem {
  type: string;
  text?: string;
  [key: string]: unknown;
}

/** The parts of a `CallToolResult` that unwrapping reads. */
export interface ToolResultLike {
  content?: readonly ContentItem[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** A tool answered with `isError: true`; `message` is the server's text, `result` the raw answer. */
export class ToolError extends Error {
  override readonly name = "ToolError";
  readonly code = "tool_error";

  constructor(
    message: string,
    readonly result: ToolResultLike,
  ) {
    super(message);
  }
}

function textOf(items: readonly ContentItem[]): string {
  return items
    .filter((item) => item.type === "text" && typeof item.text === "string")
    .map((item) => item.text)
    .join("\n");
}

/** The value code sees for a tool result (see the rules above); throws `ToolError` for `isError`. */
export function unwrapToolResult(result: ToolResultLike): unknown {
  const content = result.content ?? [];
  if (result.isError) {
    const text = textOf(content).trim();
    throw new ToolError(text === "" ? "The tool reported an error without a message" : text, result);
  }
  if (result.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
  if (content.length === 0) return null;
  if (!content.every((item) => item.type === "text")) return content;
  const text = textOf(content);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
