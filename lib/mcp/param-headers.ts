/**
 * The `Mcp-Param-*` headers of a `tools/call` on 2026-07-28 Streamable HTTP (SEP-2243): a tool's
 * input schema marks arguments with `x-mcp-header: <Name>`, and the call carries each such
 * argument's value in the header `Mcp-Param-<Name>` too, so gateways can route on it without
 * reading the body. The SDK's `Client.callTool` adds them itself; calls that go another way (the
 * tasks path's raw requests, lib/mcp/task-calls.ts) take them from here.
 *
 * Only properties reached through a chain of `properties` count, of type string, integer or
 * boolean; a value absent, null or of another kind gets no header. A value that is not a plain
 * printable ASCII field value (non-ASCII, control characters, whitespace at either end, empty,
 * or already shaped like the encoding) travels as `=?base64?<UTF-8 in Base64>?=`.
 */
import { isRecord } from "../text/json-value";

const PREFIX = "Mcp-Param-";
const ENCODED = /^=\?base64\?.*\?=$/s;
// RFC 9110 token characters: what a header name may hold.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Each marked argument's header, by `Mcp-Param-<Name>`. */
export function paramHeaders(inputSchema: unknown, args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  const visit = (schema: unknown, value: unknown): void => {
    if (!isRecord(schema)) return;
    const name = schema["x-mcp-header"];
    if (typeof name === "string" && TOKEN.test(name)) {
      const text = headerText(schema.type, value);
      if (text !== undefined) headers[`${PREFIX}${name}`] = encodeValue(text);
    }
    if (!isRecord(schema.properties) || !isRecord(value)) return;
    for (const [key, child] of Object.entries(schema.properties)) visit(child, value[key]);
  };
  if (isRecord(inputSchema) && isRecord(inputSchema.properties) && isRecord(args))
    for (const [key, child] of Object.entries(inputSchema.properties)) visit(child, args[key]);
  return headers;
}

/** Whether a header is one of these (its name starts `Mcp-Param-`, any case). */
export function isParamHeader(name: string): boolean {
  return name.toLowerCase().startsWith(PREFIX.toLowerCase());
}

function headerText(type: unknown, value: unknown): string | undefined {
  if (type === "string") return typeof value === "string" ? value : undefined;
  if (type === "boolean") return typeof value === "boolean" ? String(value) : undefined;
  if (type === "integer") return typeof value === "number" && Number.isSafeInteger(value) ? String(value) : undefined;
  return undefined;
}

function encodeValue(text: string): string {
  const plain = text !== "" && text === text.trim() && !ENCODED.test(text) && /^[\t\x20-\x7e]*$/.test(text);
  if (plain) return text;
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}
