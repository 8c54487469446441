"use client";

import { useStore } from "@/components/hooks/use-store";
import { usePage } from "@/components/playground/page-context";
import type { BrowserOAuth } from "@/lib/mcp/browser/browser-oauth";
import type { ServerStatus } from "@/lib/mcp/server-status";
import type { ServerExtrasStore } from "@/lib/mcp/server-extras";
import type { PublishedSkillsStore } from "@/lib/mcp/published-skills";
import type { ServerTasksStore } from "@/lib/mcp/server-tasks";
import type { TestCallStore } from "@/lib/mcp/test-calls";
import type { ServerRequestBroker } from "@/lib/mcp/server-requests";
import type { ServerLogStore } from "@/lib/mcp/server-logs";
import type { RootsStore } from "@/lib/mcp/roots";
import type { ServerConfig } from "@/lib/mcp/types";
import type { ServerTools, ToolCatalog } from "@/lib/codemode";
import { createToolCatalog } from "@/lib/codemode";
import type { ConnectedServer, ServersView } from "@/lib/playground/page-servers";
import type { ServerActions } from "@/lib/playground/server-actions";

export type { ConnectedServer } from "@/lib/playground/page-servers";

/** The servers' part of the page (lib/playground/page-servers.ts), as the server views read it. */
export interface UseMcpResult {
  /** What the panels do to the servers: add, edit, remove, reconnect, sign in, import, export. */
  actions: ServerActions;
  /** A server card's resources and prompts, one store per server id. */
  extrasFor: (serverId: string) => ServerExtrasStore;
  /** Reads a running local server's recent stderr; undefined for a remote one or one not running. */
  stderrOf: (serverId: string) => (() => Promise<string>) | undefined;
  /** OAuth sign-in, flow logs and tokens of the servers that use it (the browser only). */
  oauth: BrowserOAuth | undefined;
  /** What servers ask the person during a call (elicitation, sampling), waiting for an answer. */
  serverRequests: ServerRequestBroker;
  /** What each server logged (notifications/message), by server name. */
  logs: ServerLogStore;
  /** The Tools view's test calls, which outlive the view. */
  testCalls: TestCallStore;
  /** The skills servers publish, listed when a card's section opens. */
  publishedSkills: PublishedSkillsStore;
  /** The tasks the page's calls started, per server, kept across reloads. */
  tasks: ServerTasksStore;
  /** The roots (file:// directories) each server is told about, by server id. */
  roots: RootsStore | undefined;
  /** The terminal's local token (local mode), once adopted. */
  localToken: string | undefined;
  servers: readonly ServerConfig[];
  statuses: Readonly<Record<string, ServerStatus>>;
  connected: readonly ConnectedServer[];
  /** The connected servers' names and tools. */
  serverTools: readonly ServerTools[];
  /** The typed API of the connected servers. */
  catalog: ToolCatalog;
}

const EMPTY_VIEW: ServersView = { servers: [], statuses: {}, connected: [], catalog: createToolCatalog([]) };

/** The page's servers and their view; the component that calls it re-renders when the servers or their statuses change. */
export function useMcp(): UseMcpResult {
  const { playground, serverActions, oauth, localToken } = usePage();
  const servers = playground.servers;
  const view = useStore(servers.view, undefined, { fallback: EMPTY_VIEW });
  return {
    actions: serverActions,
    extrasFor: servers.extrasFor,
    stderrOf: servers.stderrOf,
    oauth,
    serverRequests: servers.serverRequests,
    logs: servers.logs,
    testCalls: servers.testCalls,
    publishedSkills: servers.publishedSkills,
    tasks: servers.tasks,
    roots: servers.roots,
    localToken,
    servers: view.servers,
    statuses: view.statuses,
    connected: view.connected,
    serverTools: view.catalog.servers,
    catalog: view.catalog,
  };
}

/** The connected servers' catalog alone: re-renders only when what is connected changes. */
export function useCatalog(): ToolCatalog {
  return useStore(usePage().playground.servers.view, catalogOf, { fallback: EMPTY_VIEW.catalog });
}

const catalogOf = (view: ServersView) => view.catalog;
