/**
 * Browser side of the stdio bridge: starts a session for a stdio server config with the local
 * token the page got from the terminal's link (local-token.ts) and returns what a
 * `StreamableHTTPClientTransport` needs (URL + headers). Runs in the browser; imports nothing
 * from the server side (see stdio-protocol.ts).
 *
 *   const bridge = await startStdioBridge(config, { baseUrl: location.origin, token });
 *   const transport = new StreamableHTTPClientTransport(bridge.url, { requestInit: { headers: bridge.headers } });
 *   …
 *   await bridge.close(); // kills the process
 */
import type { FetchLike } from "../../proxy/proxy-fetch";
import { LOCAL_TOKEN_FRAGMENT, LOCAL_TOKEN_HEADER, STDIO_BRIDGE_PATH } from "../stdio-protocol";
import type { StdioStartResponse } from "../stdio-protocol";
import { readRouteError } from "../../../http/route-error";

/** A stdio server as configured (desktop-config shape). `env` values are secrets: they go to the local app only. */
export interface StdioServerLaunch {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Restart the server's process even when other pages share it (they connect again to the new one). */
  fresh?: boolean;
  /** The era the person forced; absent: the bridge asks the process on its own pipe. */
  era?: "modern" | "legacy";
}

/** Where the app is and which fetch reaches it. */
export interface StdioBridgeOptions {
  /** The app's origin, e.g. `location.origin`. */
  baseUrl: string | URL;
  /** The local token from the link `npm start` printed; undefined when the page has none. */
  token: string | undefined;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
}

/** What a person does to get the token, shown when the page has none. */
export const NO_TOKEN_MESSAGE = `Local stdio servers need the link that \`npm start\` printed in its terminal (it ends in #${LOCAL_TOKEN_FRAGMENT}=…). Open that link once in this browser; the page keeps the token.`;

/** A started bridge session. */
export interface StdioBridgeConnection {
  /** The session's MCP endpoint, for `StreamableHTTPClientTransport`. */
  url: URL;
  /** Headers every MCP request must carry (the local token); pass as `requestInit.headers`. */
  headers: Record<string, string>;
  session: string;
  /** Process id of the server, for display. */
  pid: number;
  /** The revision the process speaks: connect with it. */
  era: "modern" | "legacy";
  /** Other pages' sessions on the same process when this one started (tabs share a server's process). */
  sharedWith: number;
  /** The process's recent stderr (a few KB, secrets removed). */
  stderr(): Promise<string>;
  /** Ends the session and kills the process; safe to call twice. */
  close(): Promise<void>;
}

/** A refusal or failure of the bridge, with the server's stable code (`refused:stdio`, `start_failed:stdio`…). */
export class StdioBridgeClientError extends Error {
  override readonly name = "StdioBridgeClientError";

  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly causeKind?: string,
  ) {
    super(message);
  }
}

async function failure(response: Response, what: string): Promise<StdioBridgeClientError> {
  const error = await readRouteError(response);
  if (error) return new StdioBridgeClientError(error.code, error.message, response.status, error.cause);
  // No JSON error: most likely a hosted build without the bridge routes.
  return new StdioBridgeClientError(
    "unavailable:stdio",
    `${what} failed (HTTP ${response.status}); local stdio servers need the app running on this machine`,
    response.status,
  );
}

/** Starts the server; throws StdioBridgeClientError with the bridge's reason. */
export async function startStdioBridge(launch: StdioServerLaunch, options: StdioBridgeOptions): Promise<StdioBridgeConnection> {
  const doFetch: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  if (options.token === undefined) throw new StdioBridgeClientError("no_token:stdio", NO_TOKEN_MESSAGE, 0);
  const headers = { [LOCAL_TOKEN_HEADER]: options.token };

  const startResponse = await doFetch(new URL(STDIO_BRIDGE_PATH, options.baseUrl), {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({
      command: launch.command,
      args: launch.args ?? [],
      env: launch.env ?? {},
      ...(launch.cwd ? { cwd: launch.cwd } : {}),
      ...(launch.fresh ? { fresh: true } : {}),
      ...(launch.era ? { era: launch.era } : {}),
    }),
  });
  if (!startResponse.ok) throw await failure(startResponse, "Starting the stdio server");
  const started = (await startResponse.json()) as StdioStartResponse;
  const url = new URL(started.url, options.baseUrl);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= doFetch(url, { method: "DELETE", headers }).then(async (response) => {
      // 404: already ended (idle, exited); the goal is reached either way.
      if (!response.ok && response.status !== 404) throw await failure(response, "Stopping the stdio server");
    });
    return closing;
  };
  const stderr = async () => {
    const target = new URL(url);
    target.searchParams.set("stderr", "1");
    const response = await doFetch(target, { headers });
    if (!response.ok) throw await failure(response, "Reading the stdio server's stderr");
    const body = (await response.json()) as { stderr?: unknown };
    return typeof body.stderr === "string" ? body.stderr : "";
  };
  // A bridge older than eras relays 2025 sessions only.
  const era = started.era === "modern" ? "modern" : "legacy";
  const sharedWith = typeof started.sharedWith === "number" ? started.sharedWith : 0;
  return { url, headers, session: started.session, pid: started.pid, era, sharedWith, stderr, close };
}
