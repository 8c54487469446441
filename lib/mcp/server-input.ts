/**
 * What a person types to register a server, checked and normalised into a ServerConfig. Pure,
 * so forms can show the same messages live that the registry gives on save.
 */
import type { ProtocolEraChoice } from "./protocol-era";
import type { ServerConfig, TransportKind } from "./types";

/** Fields of a server as a form or an import supplies them: a ServerConfig without its id, looser where a form is. */
export interface ServerInput extends Omit<ServerConfig, "id" | "enabled" | "maxCallsInFlight" | "protocolEra"> {
  /** Calls in flight at once; absent or undefined: no cap. */
  maxCallsInFlight?: number | undefined;
  /** The protocol era for a remote server; absent, undefined or "auto": negotiated. */
  protocolEra?: ProtocolEraChoice | undefined;
  enabled?: boolean;
}

/** One problem with the input, on the field a form should mark. */
export interface ServerInputIssue {
  field: "name" | "transport" | "url" | "headers" | "command" | "env" | "maxCallsInFlight" | "protocolEra";
  message: string;
}

const TRANSPORTS: readonly TransportKind[] = ["streamable-http", "sse", "stdio"];
const ERAS: readonly ProtocolEraChoice[] = ["auto", "modern", "legacy"];
/** RFC 9110 token: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_NAME_LENGTH = 64;
/** The largest cap on calls in flight a person can set (above it, a cap means nothing). */
export const MAX_CALLS_IN_FLIGHT = 1_000;
/** Relative URLs are for the app's own routes (the built-in demo servers). */
const APP_ROUTE = /^\/api\/[^\s]*$/;

/** True for an absolute http(s) URL, or an app route such as /api/demo-mcp/shipping. */
export function isServerUrl(url: string): boolean {
  if (APP_ROUTE.test(url)) return true;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

function checkRecord(record: Record<string, string> | undefined, field: "headers" | "env", issues: ServerInputIssue[]): void {
  for (const [key, value] of Object.entries(record ?? {})) {
    if (field === "headers" && !HEADER_NAME.test(key)) {
      issues.push({ field, message: `"${key}" is not a valid header name (letters, digits and - only)` });
    } else if (field === "env" && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      issues.push({ field, message: `"${key}" is not a valid environment variable name` });
    }
    if (/[\r\n\0]/.test(value)) issues.push({ field, message: `the value of "${key}" contains a line break` });
  }
}

/** Checks an input against the servers already registered (`others` excludes the one being edited). */
export function validateServerInput(input: ServerInput, others: readonly Pick<ServerConfig, "name">[]): ServerInputIssue[] {
  const issues: ServerInputIssue[] = [];
  const name = input.name.trim();
  if (name === "") issues.push({ field: "name", message: "Give the server a name" });
  else if (name.length > MAX_NAME_LENGTH) issues.push({ field: "name", message: `Keep the name under ${MAX_NAME_LENGTH} characters` });
  else if (others.some((s) => s.name.trim().toLowerCase() === name.toLowerCase())) {
    issues.push({ field: "name", message: `A server called "${name}" is already registered; names must differ (ignoring case)` });
  }
  const cap = input.maxCallsInFlight;
  if (cap !== undefined && (!Number.isInteger(cap) || cap < 1 || cap > MAX_CALLS_IN_FLIGHT)) {
    issues.push({ field: "maxCallsInFlight", message: `Calls in flight must be a whole number from 1 to ${MAX_CALLS_IN_FLIGHT}, or empty for no limit` });
  }
  if (input.protocolEra !== undefined && !ERAS.includes(input.protocolEra)) {
    issues.push({ field: "protocolEra", message: `Unknown protocol era "${String(input.protocolEra)}" (use auto, modern or legacy)` });
  }
  if (!TRANSPORTS.includes(input.transport)) {
    issues.push({ field: "transport", message: `Unknown transport "${String(input.transport)}" (use streamable-http, sse or stdio)` });
    return issues;
  }
  if (input.transport === "stdio") {
    if ((input.command ?? "").trim() === "") issues.push({ field: "command", message: "A local (stdio) server needs a command to run" });
    checkRecord(input.env, "env", issues);
  } else {
    const url = (input.url ?? "").trim();
    if (url === "") issues.push({ field: "url", message: "A remote server needs a URL" });
    else if (!isServerUrl(url)) issues.push({ field: "url", message: `"${url}" is not an http(s) URL (for example https://example.com/mcp)` });
    checkRecord(input.headers, "headers", issues);
  }
  return issues;
}

/** Builds the stored config: trimmed, and only the fields its transport uses. */
export function toServerConfig(id: string, input: ServerInput): ServerConfig {
  const name = input.name.trim();
  const enabled = input.enabled ?? true;
  const cap = input.maxCallsInFlight !== undefined ? { maxCallsInFlight: input.maxCallsInFlight } : {};
  if (input.transport === "stdio") {
    const cwd = input.cwd?.trim();
    return {
      id,
      name,
      transport: "stdio",
      command: (input.command ?? "").trim(),
      args: [...(input.args ?? [])],
      env: { ...input.env },
      ...(cwd ? { cwd } : {}),
      ...cap,
      enabled,
    };
  }
  // Legacy SSE is a 2025-era transport: only Streamable HTTP has an era to choose.
  const era =
    input.transport === "streamable-http" && (input.protocolEra === "modern" || input.protocolEra === "legacy") ? { protocolEra: input.protocolEra } : {};
  return { id, name, transport: input.transport, url: (input.url ?? "").trim(), headers: { ...input.headers }, ...cap, ...era, enabled };
}

/** The input a stored config came from (for edits: config + patch → input). */
export function toServerInput(config: ServerConfig): ServerInput {
  const { id: _id, ...rest } = config;
  return rest;
}
