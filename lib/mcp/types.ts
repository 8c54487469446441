/**
 * Shared MCP types for the server registry, config import/export and connections.
 * Types only: nothing here runs.
 */
import type { ProtocolEraChoice } from "./protocol-era";

/** How the app talks to a server. */
export type TransportKind = "streamable-http" | "sse" | "stdio";

/** One registered MCP server, as the registry and the config file see it. */
export interface ServerConfig {
  /** Stable id inside the app (derived from the name on import). */
  id: string;
  /** Display name; also the key under `mcpServers` in a desktop config file. */
  name: string;
  transport: TransportKind;
  /** Endpoint for `streamable-http` and `sse`. */
  url?: string;
  /** Extra HTTP headers (often auth) for `streamable-http` and `sse`. Secrets: never shared. */
  headers?: Record<string, string>;
  /** Executable for `stdio`. */
  command?: string;
  args?: string[];
  /** Environment for `stdio`. Secrets: never shared. */
  env?: Record<string, string>;
  cwd?: string;
  /** Tool calls to this server in flight at once, over every run (lib/host-calls/call-caps.ts); absent: no cap. */
  maxCallsInFlight?: number;
  /**
   * The protocol era to speak to the server (docs/mcp-client.md, "Protocol eras"): "modern"
   * pins 2026-07-28, "legacy" goes straight to 2025-11-25's `initialize`; absent: negotiated
   * ("auto"; a local server is asked on its own pipe, by the bridge or Node's connection).
   */
  protocolEra?: Exclude<ProtocolEraChoice, "auto">;
  enabled: boolean;
}
