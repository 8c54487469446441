/**
 * Resources from code: a server with the resources capability gets one more function in its
 * namespace, `$readResource({ uri })`, which is `resources/read` (a `$` name no MCP tool is likely
 * to have; classic mode sanitises it like any name). It is described as a tool so the typed API,
 * the Tools tab and the timeline treat it like the others, and marked in `_meta` so the host
 * function reads the resource instead of calling a tool. Pure.
 */
import type { Resource, ServerCapabilities, Tool } from "@modelcontextprotocol/client";

export const RESOURCE_READER_NAME = "$readResource";
const READER_META = "dev.code-mode-playground/resource-reader";

/** The reader as a tool definition. */
export const RESOURCE_READER: Tool = {
  name: RESOURCE_READER_NAME,
  title: "Read a resource",
  description:
    "Reads one of this server's MCP resources (resources/read) by URI: a listed resource, or a URI made from one of its resource templates. Returns its contents: text, or base64 blob, with the MIME type.",
  inputSchema: { type: "object", properties: { uri: { type: "string", description: "The resource's URI." } }, required: ["uri"] },
  outputSchema: {
    type: "object",
    properties: {
      contents: {
        type: "array",
        items: {
          type: "object",
          properties: { uri: { type: "string" }, mimeType: { type: "string" }, text: { type: "string" }, blob: { type: "string" } },
          required: ["uri"],
        },
      },
    },
    required: ["contents"],
  },
  _meta: { [READER_META]: true },
};

/** True for the reader (by its mark, not its name: a server's own "$readResource" tool stays a tool). */
export function isResourceReader(tool: Tool): boolean {
  return tool._meta?.[READER_META] === true;
}

/**
 * The server's tools plus the reader, when it has resources and no tool of that name. A server
 * whose listed resources (when known) are all MCP Apps' `ui://` documents gets no reader: those
 * are for the host to render, not for programs to read.
 */
export function withResourceReader(tools: readonly Tool[], capabilities: ServerCapabilities, resources?: readonly Pick<Resource, "uri">[]): readonly Tool[] {
  if (!capabilities.resources || tools.some((tool) => tool.name === RESOURCE_READER_NAME)) return tools;
  if (resources && resources.length > 0 && resources.every((r) => r.uri.startsWith("ui://"))) return tools;
  return [...tools, RESOURCE_READER];
}
