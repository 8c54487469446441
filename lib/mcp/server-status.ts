/**
 * What the page knows of each server's connection (docs/mcp-client.md, "The MCP client"): its
 * status as ConnectionManager publishes it (idle, connecting, connected with what it offers, an
 * error, and when a lost connection is tried again), and the settings of those tries. Types and
 * constants only, so the views and tests read them without the manager.
 */
import type { LocalProcess } from "./live-connection";
import type { Prompt, Resource, ServerCapabilities, Tool } from "@modelcontextprotocol/client";
import type { ServerInfo } from "./connection";
import type { ConnectionErrorData } from "./connection-errors";
import type { ToolDiff } from "./tool-diff";

/** A connected server's status. */
export interface ConnectedStatus {
  state: "connected";
  serverInfo: ServerInfo;
  protocolVersion: string;
  capabilities: ServerCapabilities;
  instructions?: string;
  transport: "streamable-http" | "sse";
  via: "direct" | "proxy";
  /** The server offers tasks (lib/mcp/tasks.ts): a call may run as one. */
  tasks?: true;
  /** How long the server said its tool list stays valid (a 2026-07-28 cache hint). */
  toolsTtlMs?: number;
  /** The server publishes skills (the Skills extension): the card offers to list them. */
  skills?: true;
  /** A local (stdio) server's process: its id, and how many other tabs shared it when this page connected. */
  localProcess?: LocalProcess;
  tools: readonly Tool[];
  prompts: readonly Prompt[];
  resources: readonly Resource[];
  /** What the last tools/list_changed changed. */
  lastChange?: ToolDiff;
  /** Date.now() when the connection was made. */
  connectedAt: number;
}

/** When a lost connection is tried again: attempt `attempt` of `of`, at `at` (ms since the epoch). */
export interface RestartPlan {
  attempt: number;
  of: number;
  at: number;
}

/** One server's status; a new object on every change. */
export type ServerStatus =
  | { state: "idle" }
  | { state: "connecting"; restart?: RestartPlan; tools?: readonly Tool[] }
  | ConnectedStatus
  /** While a lost connection is tried again, `tools` are the ones it had: unavailable until it is back. */
  | { state: "error"; error: ConnectionErrorData; restart?: RestartPlan; tools?: readonly Tool[] };

/** How lost connections are tried again. */
export interface RestartSettings {
  /** The first wait; each failed try doubles it up to `maxMs`. */
  initialMs: number;
  maxMs: number;
  /** Tries before giving up. */
  attempts: number;
  /** A connection that lived this long resets the count. */
  stableMs: number;
}

export const RESTART_DEFAULTS: RestartSettings = { initialMs: 1_000, maxMs: 30_000, attempts: 8, stableMs: 30_000 };
