/**
 * Connects the browser to one MCP server with the SDK's `Client`, finding a way in:
 * Streamable HTTP first, legacy SSE when the server answers the initial POST with a 4xx; direct
 * first, through the app's proxy (/api/mcp/proxy) when the browser cannot reach the server
 * (a fetch TypeError: CORS refusal and an unreachable host look the same from here).
 * Same-origin URLs (the built-in demo servers) never use the proxy. Touches the network.
 *
 * Configured headers travel in the transports' `requestInit.headers`; through the proxy,
 * createProxyFetch re-encodes them into its `x-mcp-header-*` wire form. They never leave this
 * module in any result or error.
 */
import type { Client, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  LoggingMessageNotification,
  Root,
} from "@modelcontextprotocol/client";
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/client";
import type { ServerConfig } from "./types";
import { APP_MIME_TYPE, UI_EXTENSION_ID } from "../mcp-apps/tool-ui";
import { classifyFailure, ConnectionError, displayUrl, isNetworkError } from "./connection-errors";
import type { HttpFailure } from "./connection-errors";
import { createLiveConnection } from "./live-connection";
import type { McpConnection } from "./live-connection";
import { observeFetch } from "./observed-fetch";
import type { ObservedFetch } from "./observed-fetch";
import { withOAuth } from "./oauth/oauth-fetch";
import type { OAuthSession } from "./oauth/oauth-fetch";
import { ERA_REVISION, type ProtocolEraChoice } from "./protocol-era";
import { createProxyFetch } from "./proxy/proxy-fetch";
import { authFetchFor, isOAuthError, ownSignal, type Route } from "./connection-fetch";
import { memoryVerdicts, type EraVerdicts } from "./era-verdicts";
import { loadMcpSdk, loadMcpTasks, type McpSdk } from "./sdk";
import { answerInputWith, offersTasks, type TaskCalls } from "./tasks";
import type { FetchLike } from "./proxy/proxy-fetch";

export type { CallToolOptions, McpConnection, ServerInfo } from "./live-connection";

/** How to reach servers from this page. */
export interface ConnectOptions {
  /** Origin (or any URL of this app) that relative server URLs resolve against. */
  baseUrl: string;
  /** The MCP proxy route, e.g. "/api/mcp/proxy" (resolved against baseUrl). */
  proxyUrl: string;
  /** Fetch to use for everything; defaults to the global one. */
  fetch?: FetchLike;
  /** Time allowed for the whole connect, every fallback included. Default 15 s. */
  timeoutMs?: number;
  /** Timeout for list requests on the connection. Default: timeoutMs. */
  requestTimeoutMs?: number;
  clientInfo?: { name: string; version: string };
  /**
   * "auto" (default): direct, then the proxy on a network-level failure. "direct" or "proxy"
   * force one route (tests, or servers known to lack CORS). Same-origin URLs are always direct.
   */
  via?: "auto" | "direct" | "proxy";
  /**
   * Whether the page's Content-Security-Policy lets it fetch this origin directly
   * (connect-origins.ts). When it does not, "auto" goes through the proxy at once instead of
   * trying a fetch the browser would block. Unset: every origin may be tried.
   */
  canConnectDirect?: (origin: string) => boolean;
  /**
   * OAuth for a server (oauth/oauth-fetch.ts): called per attempt with the fetch discovery and
   * token requests should use on that route (direct with the proxy as fallback, or the proxy).
   * Unset, or returning undefined: a 401 is reported, not answered.
   */
  oauth?: (config: ServerConfig, serverUrl: string, authFetch: FetchLike) => OAuthSession | undefined;
  /**
   * Answers a server's `elicitation/create` (form and URL modes); setting it declares the
   * elicitation capability, with defaults applied to what the answer leaves out.
   */
  elicit?: (config: ServerConfig, params: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult>;
  /** Answers a server's `sampling/createMessage`; setting it declares the sampling capability. */
  sample?: (config: ServerConfig, params: CreateMessageRequest["params"], signal: AbortSignal) => Promise<CreateMessageResult>;
  /** The server's roots (`roots/list`); setting it declares the roots capability with list_changed. */
  roots?: (config: ServerConfig) => Root[];
  /** The server's log messages (`notifications/message`). */
  onLog?: (config: ServerConfig, params: LoggingMessageNotification["params"]) => void;
  /** Declares the MCP Apps extension (lib/mcp-apps/): set by hosts that render apps, the page. */
  apps?: boolean;
  /**
   * The protocol era to speak (docs/mcp-client.md, "Protocol eras"). "auto" (default): ask
   * with `server/discover` whether the server speaks 2026-07-28, and fall back to the 2025-11-25
   * `initialize` when it does not; a verdict is remembered per URL (`verdicts`) for later
   * connects. "legacy" goes straight to `initialize`; "modern" speaks only 2026-07-28.
   */
  era?: ProtocolEraChoice;
  /** A local (stdio) server's process is started again even when other tabs share it (the person's Reconnect). */
  freshProcess?: boolean;
  /** Where eras found per server URL are kept (era-verdicts.ts); default: this process's memory. */
  verdicts?: EraVerdicts;
}

/** Eras found per server URL in this process, when the caller keeps none of its own. */
const processVerdicts = memoryVerdicts();

/** Default connect timeout. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;

const DEFAULT_CLIENT_INFO = { name: "code-mode-playground", version: "0.1.0" };

type Wire = "streamable-http" | "sse";

// Exported for the Node stdio client (node/stdio-connection.ts), which wants the same.
// The SDK's Client validates structuredContent against outputSchema on callTool and compiles
// every outputSchema on listTools, throwing on a schema ajv rejects. We want mismatches
// flagged (lib/mcp/validate.ts, in lib/host-calls/mcp-tools.ts), never a whole tools/list lost.
export const ACCEPT_ALL: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** One failed try, with what the wire showed. */
class AttemptFailure {
  constructor(
    readonly error: unknown,
    readonly http: HttpFailure | undefined,
    readonly networkError: unknown,
    readonly timedOut: boolean,
    readonly wire: Wire,
    readonly answeredBefore: boolean,
  ) {}

  /**
   * Initialize answered, then the next request got a 400: what a browser sees when a server's
   * CORS policy does not expose Mcp-Session-Id, so the session id never reaches the transport.
   * The proxy passes that header through.
   */
  get sessionHidden(): boolean {
    return this.wire === "streamable-http" && this.answeredBefore && this.status === 400;
  }

  /** The try failed below HTTP (CORS or unreachable): the proxy may get through. */
  get network(): boolean {
    if (this.networkError === undefined || this.timedOut) return false;
    const code = (this.error as { code?: unknown } | null)?.code;
    return this.error === this.networkError || isNetworkError(this.error) || code === undefined;
  }

  /** HTTP status of the failure, if the server answered. */
  get status(): number | undefined {
    const code = (this.error as { code?: unknown } | null)?.code;
    return typeof code === "number" && code >= 100 ? code : this.http?.status;
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        onTimeout();
        reject(new Error(`no answer within ${ms} ms`));
      },
      Math.max(0, ms),
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

interface Attempted {
  client: Client;
  transport: StreamableHTTPClientTransport | SSEClientTransport;
  observer: ObservedFetch;
  protocolVersion: string;
}

/** The tasks path of a connection whose server offers the extension on 2026-07-28, else undefined. */
async function tasksFor(live: Attempted, url: URL, config: ServerConfig, options: ConnectOptions, requestTimeoutMs: number): Promise<TaskCalls | undefined> {
  const { client, transport } = live;
  if (!offersTasks(client) || !("sessionId" in transport)) return undefined;
  const { createTaskCalls } = await loadMcpTasks();
  return createTaskCalls({
    client,
    transport,
    clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
    capabilities: clientCapabilities(options),
    protocolVersion: live.protocolVersion,
    requestTimeoutMs,
    answer: answerInputWith(config, options),
    endpointId: url.href,
  });
}

function clientCapabilities(options: ConnectOptions): ClientCapabilities {
  return {
    ...(options.elicit ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
    ...(options.sample ? { sampling: {} } : {}),
    ...(options.roots ? { roots: { listChanged: true } } : {}),
    ...(options.apps ? { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } } : {}),
  };
}

async function attempt(
  sdk: McpSdk,
  url: URL,
  wire: Wire,
  route: Route,
  config: ServerConfig,
  headers: Record<string, string> | undefined,
  options: ConnectOptions,
  deadline: number,
): Promise<Attempted> {
  const base: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const proxyUrl = new URL(options.proxyUrl, options.baseUrl);
  const proxy = createProxyFetch({ proxyUrl, fetch: base });
  const routeFetch = route === "proxy" ? proxy : base;
  const session = options.oauth?.(config, url.href, authFetchFor(route, base, proxy, options));
  const observer = observeFetch(session ? withOAuth(routeFetch, session) : routeFetch);
  const transportOptions = { fetch: ownSignal(observer.fetch), ...(headers ? { requestInit: { headers } } : {}) };
  const { Client, SSEClientTransport, StreamableHTTPClientTransport } = sdk;
  const transport = wire === "streamable-http" ? new StreamableHTTPClientTransport(url, transportOptions) : new SSEClientTransport(url, transportOptions);
  // Legacy SSE is a 2025-era transport; Streamable HTTP negotiates unless told otherwise.
  const choice: ProtocolEraChoice = wire === "sse" ? "legacy" : (options.era ?? "auto");
  const verdicts = options.verdicts ?? processVerdicts;
  const remembered = choice === "auto" ? verdicts.get(url.href) : undefined;
  const mode = choice === "modern" ? { pin: ERA_REVISION.modern } : choice === "auto" && remembered !== "legacy" ? ("auto" as const) : ("legacy" as const);
  const client = new Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, {
    capabilities: clientCapabilities(options),
    jsonSchemaValidator: ACCEPT_ALL,
    versionNegotiation: { mode },
  });
  // Handlers answer a 2025 server's requests and, on 2026-07-28, the input a server asks for
  // in an `input_required` result (the SDK retries the call with the answers: MRTR).
  const elicit = options.elicit;
  if (elicit) client.setRequestHandler("elicitation/create", (request, ctx) => elicit(config, request.params, ctx.mcpReq.signal));
  const roots = options.roots;
  if (roots) client.setRequestHandler("roots/list", () => ({ roots: roots(config) }));
  const onLog = options.onLog;
  if (onLog) client.setNotificationHandler("notifications/message", (notification) => onLog(config, notification.params));
  const sample = options.sample;
  if (sample) client.setRequestHandler("sampling/createMessage", (request, ctx) => sample(config, request.params, ctx.mcpReq.signal));
  const remaining = deadline - Date.now();
  let timedOut = remaining <= 0;
  try {
    if (timedOut) throw new Error("no time left");
    // The request timeout covers the initialize request; the deadline also covers the legacy
    // SSE transport's start(), which waits for the `endpoint` event with no timeout of its own.
    await withDeadline(client.connect(transport, { timeout: remaining }), remaining, () => {
      timedOut = true;
    });
    const era = client.getProtocolEra();
    if (choice === "auto" && era) verdicts.set(url.href, era);
  } catch (error) {
    await Promise.allSettled([client.close(), transport.close()]);
    // A remembered "legacy" may be stale (the server moved to 2026-07-28): forget it, negotiate once more.
    if (remembered === "legacy" && Date.now() < deadline) {
      verdicts.forget(url.href);
      return attempt(sdk, url, wire, route, config, headers, options, deadline);
    }
    const cause = probeCause(error);
    if (isOAuthError(cause)) throw new ConnectionError("oauth", cause.message, { cause, status: 401 });
    throw new AttemptFailure(cause, observer.lastFailure, observer.lastNetworkError, timedOut, wire, observer.successes > 0);
  }
  return { client, transport, observer, protocolVersion: client.getNegotiatedProtocolVersion() ?? "" };
}

/**
 * The SDK wraps whatever broke its `server/discover` probe (a refused port, a CORS failure, an
 * OAuth error) in an SdkError "ERA_NEGOTIATION_FAILED"; what broke is what the person needs.
 */
function probeCause(error: unknown): unknown {
  const wrapped = error as { code?: unknown; cause?: unknown } | null;
  return wrapped?.code === "ERA_NEGOTIATION_FAILED" && wrapped.cause instanceof Error ? wrapped.cause : error;
}

// A 4xx on the initial POST is how a legacy-SSE-only server says "not here"; auth failures
// and throttling are not, and would fail the same way over SSE.
function shouldTrySse(failure: AttemptFailure): boolean {
  const status = failure.status;
  return status !== undefined && status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
}

async function connectOnRoute(
  sdk: McpSdk,
  url: URL,
  wires: readonly Wire[],
  route: Route,
  config: ServerConfig,
  options: ConnectOptions,
  deadline: number,
): Promise<Attempted & { wire: Wire }> {
  const headers = config.headers && Object.keys(config.headers).length > 0 ? { ...config.headers } : undefined;
  let streamableFailure: AttemptFailure | undefined;
  for (const wire of wires) {
    try {
      return { ...(await attempt(sdk, url, wire, route, config, headers, options, deadline)), wire };
    } catch (failure) {
      if (!(failure instanceof AttemptFailure)) throw failure;
      if (failure.sessionHidden && route === "direct") throw failure;
      if (wire === "streamable-http" && wires.includes("sse") && shouldTrySse(failure)) {
        streamableFailure = failure;
        continue;
      }
      // Both transports said "not here": the POST's answer is the more telling one.
      if (streamableFailure && failure.status !== undefined && shouldTrySse(failure)) throw streamableFailure;
      throw failure;
    }
  }
  throw streamableFailure ?? new Error("no transport to try");
}

function resolveUrl(config: ServerConfig, baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(config.url ?? "", baseUrl);
  } catch {
    throw new ConnectionError("unsupported", `"${config.url ?? ""}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConnectionError("unsupported", `${url.protocol} URLs are not supported: use an http(s) URL.`);
  }
  return url;
}

/** Connects to a remote MCP server (see the file comment for the fallbacks); rejects with ConnectionError. */
export async function connectToServer(config: ServerConfig, given: ConnectOptions): Promise<McpConnection> {
  // The server's own era setting, unless the caller chose one for this connect.
  const options = given.era === undefined && config.protocolEra ? { ...given, era: config.protocolEra } : given;
  if (config.transport === "stdio") {
    throw new ConnectionError(
      "unsupported",
      `${config.name} is a local (stdio) server: it needs the local bridge, which is only available when the playground runs on your own machine.`,
    );
  }
  const url = resolveUrl(config, options.baseUrl);
  const sameOrigin = url.origin === new URL(options.baseUrl).origin;
  const allowed = options.canConnectDirect?.(url.origin) ?? true;
  const via = options.via === undefined || options.via === "auto" ? (allowed ? "auto" : "proxy") : options.via;
  const routes: Route[] = sameOrigin || via === "direct" ? ["direct"] : via === "proxy" ? ["proxy"] : ["direct", "proxy"];
  const wires: Wire[] = config.transport === "sse" ? ["sse"] : ["streamable-http", "sse"];
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const sdk = await loadMcpSdk();
  for (const [index, route] of routes.entries()) {
    try {
      const live = await connectOnRoute(sdk, url, wires, route, config, options, deadline);
      const requestTimeoutMs = options.requestTimeoutMs ?? timeoutMs;
      const tasks = await tasksFor(live, url, config, options, requestTimeoutMs).catch(async (error: unknown) => {
        await live.client.close().catch(() => undefined);
        throw error;
      });
      return createLiveConnection(sdk, {
        ...live,
        transportKind: live.wire,
        via: route,
        url: url.href,
        requestTimeoutMs,
        ...(tasks ? { tasks } : {}),
      });
    } catch (failure) {
      if (!(failure instanceof AttemptFailure)) throw failure;
      if ((failure.network || failure.sessionHidden) && index < routes.length - 1 && Date.now() < deadline) continue;
      if (failure.sessionHidden && route === "direct" && !sameOrigin) {
        throw new ConnectionError(
          "cors-or-network",
          `${displayUrl(url.href)} accepted the handshake but refused the next request (HTTP 400). Browsers see this when a server's CORS policy does not expose the Mcp-Session-Id header: add it to Access-Control-Expose-Headers, or connect through the proxy.`,
          { status: 400 },
        );
      }
      const cause = failure.network ? failure.networkError : failure.error;
      throw classifyFailure(cause, {
        url: url.href,
        via: route,
        http: failure.http,
        timeoutMs,
        timedOut: failure.timedOut,
        supportedVersions: [ERA_REVISION.modern, ...sdk.SUPPORTED_PROTOCOL_VERSIONS],
        era: config.transport === "sse" ? "legacy" : (options.era ?? "auto"),
      });
    }
  }
  throw new ConnectionError("protocol", "No route to the server was tried.");
}
