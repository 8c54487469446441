/**
 * The browser's playground, built when this module loads, before React hydrates
 * (docs/page-state.md, "Page state"): so the sandbox worker's start and the servers' connections
 * overlap the page's own start instead of following it. Everything that needs `window` is wired
 * here: the terminal's local token, the connect-origins cookie, the app's channel, OAuth, the
 * stdio bridge, the agent-run feed and the server's key status.
 */
import type { ServerActions } from "../server-actions";
import { Playground } from "../playground";
import { Store } from "../../state/store";
import { browserStorage, browserStorageOrNone } from "../../storage/browser/browser-storage";
import { ServerRegistry } from "../../mcp/registry";
import { createRegistryStorage } from "../../mcp/registry-storage";
import { storedVerdicts } from "../../mcp/era-verdicts";
import { withStdioBridge } from "../../mcp/stdio/browser/stdio-connector";
import { BrowserOAuth } from "../../mcp/browser/browser-oauth";
import type { ConnectOptions } from "../../mcp/connection";
import { oauthFetch } from "../../mcp/connection-fetch";
import { adoptLocalToken, hashWithoutToken } from "../../mcp/stdio/browser/local-token";
import { allowedConnectOrigins, connectOriginsCookie } from "../../mcp/browser/connect-origins";
import { appChannel, appFetch } from "../../channel/browser/app-channel";
import { withoutDemoGetStream } from "../../mcp/demo-fetch";
import { capPerOrigin } from "../../mcp/proxy/origin-cap";
import { createProxyFetch } from "../../mcp/proxy/proxy-fetch";
import { RootsStore } from "../../mcp/roots";
import { createSandboxWorker } from "../../sandbox/browser/create-browser-worker";
import { createCodeStore } from "../../editor/code-store";
import { httpModelStep } from "../../model/browser/http-model-step";
import { followRunFeed, type FeedStatus } from "../../codemode-mcp/browser/run-feed-client";
import type { ServerKeyAccess } from "../../model/chat-settings";
import type { ServerKeyStatus } from "../../model/providers";
import { idbStore } from "../../storage/browser/idb-store";
import { hashWithoutShare, readShareFromLocation } from "../../share/browser/location";
import { createShareClient } from "../../share/browser/api-client";
import { ShareLinkStore } from "../../share/browser/share-link-store";
import { SessionKeeper } from "../session-keeper";
import { replayEarlyClicks } from "./early-clicks";

/** Whether agents' runs through the app's code-mode MCP endpoint stream into the history (local mode only). */
export class AgentFeedStore extends Store<FeedStatus | undefined> {
  report(status: FeedStatus): void {
    this.set(status);
  }
}

/** The page's state and what only the browser has. */
export interface PageState {
  playground: Playground;
  /** What the server panels do to the servers (remove, reconnect, sign in, import...). */
  serverActions: ServerActions;
  /** OAuth sign-in, flow logs and tokens of the servers that use it. */
  oauth: BrowserOAuth | undefined;
  /** The terminal's local token (local mode): it opens the stdio bridge and the agent-run feed. */
  localToken: string | undefined;
  agentFeed: AgentFeedStore;
  /** The session kept across reloads in this browser's IndexedDB. */
  session: SessionKeeper;
  /** The share the page opened (a link, a short link, a file) and its banner. */
  shareLink: ShareLinkStore;
  /** Called once React has hydrated: what must wait for Next's router (the address bar) happens then. */
  hydrated(): void;
}

/**
 * Resolves in a task queued after the render React has scheduled for the updates made so far: a
 * sync update renders in a microtask, a default one in a task React's scheduler has already
 * posted, and messages posted later are delivered later.
 */
function afterRender(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/**
 * Calls `f` once the page's main thread is idle (at the latest after two seconds): the sandbox's
 * warm-up run then takes no core from the page's start. Safari has no requestIdleCallback.
 */
function whenIdle(f: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => f(), { timeout: 2_000 });
  else setTimeout(f, 0);
}

/** Phases of the page's start, as User Timing marks the bench reads (scripts/bench/peers.ts). */
export const START_MARKS = { pageState: "cmp:page-state", sandboxReady: "cmp:sandbox-ready", hydrated: "cmp:hydrated" } as const;

function createPageState(): PageState {
  performance.mark(START_MARKS.pageState);
  // The stdio bridge's token arrives once, in the fragment of the link `npm start` printed. It
  // leaves the address bar after hydration: Next's router sets the URL it started with then.
  let stripToken = false;
  const localToken = adoptLocalToken(window.location, { state: null, replaceState: () => (stripToken = true) }, browserStorage());
  // A shared link puts its parts in the page; it never starts a run (docs/security.md, "Security").
  const shareLink = new ShareLinkStore({
    client: createShareClient((input, init) => fetch(input, init)),
    onOpen: ({ state }) => playground.openShare(state),
    dropFromAddress: () => {
      const { pathname, search, hash } = window.location;
      const rest = hashWithoutShare(hash);
      if (rest !== hash) window.history.replaceState(window.history.state, "", `${pathname}${search}${rest}`);
    },
  });
  const openAddressShare = () => shareLink.openLocation(readShareFromLocation(window.location));
  let followingAddress = false;
  const hydrated = () => {
    if (performance.getEntriesByName(START_MARKS.hydrated).length === 0) performance.mark(START_MARKS.hydrated);
    // The buttons a person clicked while the page was still loading get their click now.
    replayEarlyClicks();
    // The share in the address bar opens once Next's router has the URL, and again whenever the
    // fragment changes (a link pasted into the address bar of an open tab).
    if (!followingAddress) {
      followingAddress = true;
      openAddressShare();
      window.addEventListener("hashchange", openAddressShare);
    }
    if (!stripToken) return;
    stripToken = false;
    const { pathname, search, hash } = window.location;
    window.history.replaceState(window.history.state, "", `${pathname}${search}${hashWithoutToken(hash)}`);
  };
  const origin = window.location.origin;
  const registry = new ServerRegistry({ storage: createRegistryStorage(browserStorageOrNone()) });
  // The origins this page's CSP lets it fetch; the cookie then names every server for the next load.
  const direct = allowedConnectOrigins(document.cookie);
  const keepCookie = () => {
    document.cookie = connectOriginsCookie(registry.snapshot(), origin);
  };
  keepCookie();
  registry.subscribe(keepCookie);
  // The app's own routes (demo servers, proxy, stdio bridge) go through the page's one channel;
  // past two requests at once to another origin, the rest go through the proxy on it too.
  const toApp = withoutDemoGetStream(appFetch, origin);
  const viaProxy = createProxyFetch({ proxyUrl: new URL("/api/mcp/proxy", origin), fetch: toApp });
  const connectOptions: ConnectOptions = {
    baseUrl: origin,
    proxyUrl: "/api/mcp/proxy",
    fetch: capPerOrigin(toApp, viaProxy, { max: 2, appOrigin: origin }),
    canConnectDirect: (o) => direct.has(o),
    // The page renders MCP Apps (components/apps/AppView.tsx), so it says so to every server.
    apps: true,
    // Eras found per server outlive a reload: a 2025 server is not probed again (lib/mcp/era-verdicts.ts).
    verdicts: storedVerdicts(browserStorageOrNone()),
  };
  const oauth = new BrowserOAuth(browserStorageOrNone(), origin, oauthFetch(connectOptions));
  // One IndexedDB store holds the session and the skills, under their own keys.
  const kv = idbStore();
  const playground = new Playground({
    registry,
    connectOptions,
    // The app's own demo servers never ask for OAuth: their calls skip the wrapper.
    oauth: (config, serverUrl, authFetch) => (new URL(serverUrl).origin === origin ? undefined : oauth.session(config, serverUrl, authFetch)),
    connector: withStdioBridge(() => localToken),
    roots: new RootsStore(browserStorageOrNone()),
    taskStorage: browserStorageOrNone(),
    createWorker: () => createSandboxWorker(),
    afterRunStart: afterRender,
    whenIdle,
    codeStore: createCodeStore(browserStorage()),
    ...(browserStorage() ? { settingsStorage: browserStorage(), limitsStorage: browserStorage() } : {}),
    modelStep: (body) => httpModelStep({ body }),
    ...(kv ? { skillStorage: kv } : {}),
  });
  playground.start();
  const sandboxReady = playground.workbench.sandbox.subscribe(() => {
    if (!playground.workbench.sandbox.snapshot().ready) return;
    performance.mark(START_MARKS.sandboxReady);
    sandboxReady();
  });

  // When the page's channel to the app is back after a drop, the servers it lost connect again.
  const channel = appChannel();
  let channelState = channel.snapshot().state;
  channel.subscribe(() => {
    const next = channel.snapshot().state;
    if (next === "open" && channelState === "reconnecting") void playground.servers.reconnectLost();
    channelState = next;
  });

  // Runs that agents make through this app's code-mode MCP endpoint join the history as they stream.
  const agentFeed = new AgentFeedStore(undefined);
  if (localToken) {
    void followRunFeed(
      localToken,
      { onUpdate: (update) => playground.workbench.history.add(update.record, "agent"), onStatus: (status) => agentFeed.report(status) },
      new AbortController().signal,
    );
  }

  // Which providers the server holds keys for (booleans only); unknown is a fine answer.
  appFetch("/api/chat/providers", { cache: "no-store" })
    .then((response) => (response.ok ? (response.json() as Promise<{ serverKeys?: ServerKeyStatus; access?: ServerKeyAccess }>) : undefined))
    .then((body) => {
      if (body?.serverKeys) playground.model.serverKeysKnown(body.serverKeys, body.access);
    })
    .catch(() => undefined);

  // A page opened from a shared link keeps the link's conversation rather than the saved one.
  const session = new SessionKeeper(playground, kv);
  void session.start({ restoreConversation: readShareFromLocation(window.location).kind === "none" });

  window.addEventListener("pagehide", () => {
    playground.editor.flush();
    void session.flush();
  });
  const serverActions = playground.servers.actions(oauth);
  return { playground, serverActions, oauth, localToken, agentFeed, session, shareLink, hydrated };
}

let page: PageState | undefined;

/** The page's state in the browser (built on first call, which this module makes when it loads); undefined elsewhere. */
export function pageState(): PageState | undefined {
  if (typeof window === "undefined" || typeof Worker === "undefined") return undefined;
  return (page ??= createPageState());
}

// Built at load, before hydration.
pageState();
