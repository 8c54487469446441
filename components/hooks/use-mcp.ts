"use client";

import { useStore } from "@/components/hooks/use-store";
import { browserStorage, browserStorageOrNone } from "@/lib/storage/browser/browser-storage";
import { useCallback, useEffect, useMemo, useState } from "react";
import { ServerRegistry } from "@/lib/mcp/registry";
import { createRegistryStorage } from "@/lib/mcp/registry-storage";
import { ConnectionManager, type ServerStatus } from "@/lib/mcp/connection-manager";
import { withStdioBridge } from "@/lib/mcp/browser/stdio-connector";
import { BrowserOAuth } from "@/lib/mcp/browser/browser-oauth";
import { oauthFetch } from "@/lib/mcp/connection";
import type { ConnectOptions } from "@/lib/mcp/connection";
import { adoptLocalToken } from "@/lib/mcp/browser/local-token";
import { allowedConnectOrigins, connectOriginsCookie } from "@/lib/mcp/browser/connect-origins";
import { appChannel, appFetch } from "@/lib/http/browser/app-channel";
import { withoutDemoGetStream } from "@/lib/mcp/demo-fetch";
import { capPerOrigin } from "@/lib/mcp/origin-cap";
import { TestCallStore } from "@/lib/mcp/test-calls";
import { createProxyFetch } from "@/lib/mcp/proxy-fetch";
import { buildHostFunctions, originalNames, type HostCallReport } from "@/lib/mcp/host-functions";
import { CallsInFlight, ServerRequestBroker, type ServerRequestNote } from "@/lib/mcp/server-requests";
import { ServerLogStore } from "@/lib/mcp/server-logs";
import { RootsStore } from "@/lib/mcp/roots";
import { withResourceReader } from "@/lib/mcp/resource-reader";
import { unavailableServer } from "@/lib/mcp/unavailable";
import { CallCaps } from "@/lib/mcp/call-caps";
import { mapHost } from "@/lib/host-calls/host-table";
import type { ServerConfig } from "@/lib/mcp/types";
import type { ServerTools } from "@/lib/codemode";
import type { HostFunctions } from "@/lib/sandbox/types";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** A connected server with the tools it listed: what the typed API and the sandbox see. */
export interface ConnectedServer {
  config: ServerConfig;
  tools: readonly Tool[];
}

export interface UseMcpResult {
  /** Undefined until the registry has loaded on the client. */
  registry: ServerRegistry | undefined;
  manager: ConnectionManager | undefined;
  /** OAuth sign-in, flow logs and tokens of the servers that use it. */
  oauth: BrowserOAuth | undefined;
  /** What servers ask the person during a call (elicitation, sampling), waiting for an answer. */
  serverRequests: ServerRequestBroker;
  /** What each server logged (notifications/message), by server name. */
  logs: ServerLogStore;
  /** The Tools view's test calls, which outlive the view. */
  testCalls: TestCallStore;
  /** The roots (file:// directories) each server is told about, by server id. */
  roots: RootsStore | undefined;
  /** The terminal's local token (local mode), once adopted; it opens the stdio bridge and the agent-run feed. */
  localToken: string | undefined;
  servers: readonly ServerConfig[];
  statuses: Readonly<Record<string, ServerStatus>>;
  connected: readonly ConnectedServer[];
  /** The same list in the shape the declarations generator takes. */
  serverTools: readonly ServerTools[];
  /** Host functions for one run: one namespace per connected server. */
  hostFor: (onCallInfo: (callId: number, info: HostCallReport) => void, onProgress?: OnProgress) => HostFunctions;
}

type OnProgress = NonNullable<Parameters<typeof buildHostFunctions>[1]>["onProgress"];

const NO_SERVERS: readonly ServerConfig[] = [];
const MAX_LOGS_PER_CALL = 20;
const NO_STATUSES: Readonly<Record<string, ServerStatus>> = {};

/**
 * The registered MCP servers (kept in this browser's localStorage, secrets under their own key)
 * and their live connections. Everything lives on the client: the server never sees them.
 */
export function useMcp(): UseMcpResult {
  const [serverRequests] = useState(() => new ServerRequestBroker());
  const [inFlight] = useState(() => new CallsInFlight());
  const [logs] = useState(() => new ServerLogStore());
  const [testCalls] = useState(() => new TestCallStore());
  const [stores, setStores] = useState<
    { registry: ServerRegistry; manager: ConnectionManager; oauth: BrowserOAuth; roots: RootsStore; localToken: string | undefined; caps: CallCaps } | undefined
  >(undefined);

  useEffect(() => {
    // The stdio bridge's token arrives once, in the fragment of the link `npm start` printed.
    const localToken = adoptLocalToken(window.location, window.history, browserStorage());
    const registry = new ServerRegistry({ storage: createRegistryStorage(browserStorageOrNone()) });
    // The origins this page's CSP lets it fetch; the cookie then names every server for the next load.
    const direct = allowedConnectOrigins(document.cookie);
    const keepCookie = () => {
      document.cookie = connectOriginsCookie(registry.snapshot(), window.location.origin);
    };
    keepCookie();
    const unsubscribeCookie = registry.subscribe(keepCookie);
    // The app's own routes (demo servers, proxy, stdio bridge) go through the page's one channel;
    // past two requests at once to another origin, the rest go through the proxy on it too.
    const toApp = withoutDemoGetStream(appFetch, window.location.origin);
    const viaProxy = createProxyFetch({ proxyUrl: new URL("/api/mcp/proxy", window.location.origin), fetch: toApp });
    const connectOptions: ConnectOptions = {
      baseUrl: window.location.origin,
      proxyUrl: "/api/mcp/proxy",
      fetch: capPerOrigin(toApp, viaProxy, { max: 2, appOrigin: window.location.origin }),
      canConnectDirect: (origin) => direct.has(origin),
    };
    const oauth = new BrowserOAuth(browserStorageOrNone(), window.location.origin, oauthFetch(connectOptions));
    const roots = new RootsStore(browserStorageOrNone());
    const manager = new ConnectionManager(registry, {
      connectOptions: {
        ...connectOptions,
        // The app's own demo servers never ask for OAuth: their calls skip the wrapper.
        oauth: (config, serverUrl, authFetch) =>
          new URL(serverUrl).origin === window.location.origin ? undefined : oauth.session(config, serverUrl, authFetch),
        roots: (config) => roots.get(config.id),
        elicit: (config, params, signal) => serverRequests.elicit(config.name, params, signal, inFlight.latest(config.name)),
        sample: (config, params, signal) => serverRequests.sample(config.name, params, signal, inFlight.latest(config.name)),
        onLog: (config, params) => {
          const call = inFlight.latest(config.name);
          const entry = logs.add(config.name, params, call?.callId);
          if (entry && call?.log) call.log({ level: entry.level, text: entry.text });
        },
      },
      connector: withStdioBridge(() => localToken),
    });
    // Each server's cap on calls in flight holds over every run of the page (lib/mcp/call-caps.ts).
    const caps = new CallCaps((name) => registry.snapshot().find((s) => s.name === name)?.maxCallsInFlight);
    // Creating the stores needs `window`, which only exists after mount.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setStores({ registry, manager, oauth, roots, localToken, caps });
    // A server connected while its roots change hears about it.
    const unsubscribeRoots = roots.subscribe((id) => void manager.connection(id)?.notifyRootsChanged());
    void manager.connectAll();
    // When the page's channel to the app is back after a drop, the servers it lost connect again.
    const channel = appChannel();
    let channelState = channel.snapshot().state;
    const unsubscribeChannel = channel.subscribe(() => {
      const next = channel.snapshot().state;
      if (next === "open" && channelState === "reconnecting") void manager.reconnectLost();
      channelState = next;
    });
    return () => {
      unsubscribeChannel();
      unsubscribeCookie();
      unsubscribeRoots();
      serverRequests.cancelAll();
      void manager.dispose();
    };
  }, [serverRequests, inFlight, logs]);

  const registry = stores?.registry;
  const manager = stores?.manager;
  const caps = stores?.caps;
  const servers = useStore(registry, undefined, { fallback: NO_SERVERS });
  const statuses = useStore(manager, undefined, { fallback: NO_STATUSES });

  const connected = useMemo(() => {
    const list: ConnectedServer[] = [];
    for (const config of servers) {
      const status = statuses[config.id];
      // Servers with resources get `$readResource` too (lib/mcp/resource-reader.ts).
      if (config.enabled && status?.state === "connected") list.push({ config, tools: withResourceReader(status.tools, status.capabilities) });
    }
    return list;
  }, [servers, statuses]);

  const serverTools = useMemo(() => connected.map((s) => ({ name: s.config.name, tools: s.tools })), [connected]);

  const hostFor = useCallback(
    (onCallInfo: (callId: number, info: HostCallReport) => void, onProgress?: OnProgress): HostFunctions => {
      if (!manager) return {};
      const live = connected.flatMap((s) => {
        const connection = manager.connection(s.config.id);
        return connection ? [{ name: s.config.name, connection, tools: s.tools }] : [];
      });
      // Servers being tried again keep their namespace; their calls fail saying so (lib/mcp/unavailable.ts).
      const down = servers.flatMap((config) => (config.enabled ? (unavailableServer(config.name, statuses[config.id]) ?? []) : []));
      const built = buildHostFunctions([...live, ...down], { onCallInfo, ...(onProgress ? { onProgress } : {}) });
      const namespaces = built.namespaces;
      const host = caps ? caps.wrap(built.host, namespaces, onCallInfo) : built.host;
      const whereOf = originalNames(namespaces);
      // Each call is registered while its server serves it, so an elicitation lands on its row and pauses its clocks.
      return mapHost(host, (fn, namespace, name) => {
        const { server, tool } = whereOf(namespace, name);
        return async (args, signal, call) => {
          const notes: ServerRequestNote[] = [];
          const logged: Array<{ level: string; text: string }> = [];
          const end = inFlight.begin(server, {
            callId: call.callId,
            signal,
            ...(call.suspendClock ? { suspendClock: call.suspendClock } : {}),
            note: (note) => {
              const index = notes.findIndex((n) => n.message === note.message && n.state === "waiting");
              if (index >= 0) notes[index] = note;
              else notes.push(note);
              onCallInfo(call.callId, { server, tool, serverRequests: [...notes] });
            },
            log: (entry) => {
              // The first few per call: the server's own view keeps the rest.
              if (logged.length >= MAX_LOGS_PER_CALL) return;
              logged.push(entry);
              onCallInfo(call.callId, { server, tool, serverLogs: [...logged] });
            },
          });
          try {
            return await fn(args, signal, call);
          } finally {
            end();
          }
        };
      });
    },
    [manager, caps, connected, servers, statuses, inFlight],
  );

  return {
    registry,
    manager,
    oauth: stores?.oauth,
    roots: stores?.roots,
    serverRequests,
    logs,
    testCalls,
    localToken: stores?.localToken,
    servers,
    statuses,
    connected,
    serverTools,
    hostFor,
  };
}
