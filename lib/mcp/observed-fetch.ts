/**
 * A fetch wrapper that watches the wire for a connection: it keeps the last failed HTTP
 * answer (status, content type, a few KB of body) and the last network error, so connect
 * failures can be classified precisely, and it reports when the connection drops after it
 * was established (a request rejecting at the network level, or a response body breaking
 * off mid-stream), so a call in flight fails at once instead of waiting for its timeout.
 *
 * Why a wrapper: the SDK turns HTTP failures into `Error POSTing to endpoint: <body>` strings,
 * and a POST's SSE stream that breaks only reaches `transport.onerror`, while the request
 * waiting for it hangs (streamableHttp.js `_handleSseStream`).
 */
import type { HttpFailure } from "./connection-errors";
import type { FetchLike } from "./proxy/proxy-fetch";
import { parseRouteErrorBody } from "../http/route-error";

const MAX_BODY_CHARS = 4096;

/** A fetch plus what it saw. */
export interface ObservedFetch {
  fetch: FetchLike;
  /** Last non-2xx answer, if any. */
  readonly lastFailure: HttpFailure | undefined;
  /** How many requests got a 2xx answer. */
  readonly successes: number;
  /** Last network-level error (a fetch TypeError), if any. */
  readonly lastNetworkError: unknown;
  /** From now on, network failures are drops: call `onDrop`. */
  watchForDrops(onDrop: (error: unknown) => void): void;
  /** Stop reporting drops (we are closing on purpose). */
  stopWatching(): void;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** What a 404 for a session says: a RouteError's message, else a plain sentence. */
function sessionEndText(body: string): string {
  return parseRouteErrorBody(body)?.message ?? "the server no longer knows this session; it may have restarted";
}

/** Wraps `base`; see the file comment. */
export function observeFetch(base: FetchLike): ObservedFetch {
  let lastFailure: HttpFailure | undefined;
  let lastNetworkError: unknown;
  let successes = 0;
  let onDrop: ((error: unknown) => void) | undefined;

  const drop = (error: unknown) => {
    if (onDrop && !isAbort(error)) onDrop(error);
  };

  const watchBody = (response: Response): Response => {
    // Wrapped from the start: the standalone GET stream opens during the handshake, before
    // drops are watched, and must still report breaking off later.
    if (!response.body) return response;
    const reader = response.body.getReader();
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (cancelled) return;
          controller.error(error);
          drop(error);
          return;
        }
        // The reader of our side may have cancelled while the read was pending.
        if (cancelled) return;
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel(reason) {
        cancelled = true;
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  const fetch: FetchLike = async (url, init) => {
    let response: Response;
    try {
      response = await base(url, init);
    } catch (error) {
      if (error instanceof TypeError) {
        lastNetworkError = error;
        drop(error);
      }
      throw error;
    }
    if (!response.ok && response.type !== "opaqueredirect") {
      const body = await response
        .clone()
        .text()
        .catch(() => "");
      lastFailure = {
        method: init?.method ?? "GET",
        status: response.status,
        contentType: response.headers.get("content-type") ?? "",
        body: body.slice(0, MAX_BODY_CHARS),
        wwwAuthenticate: response.headers.get("www-authenticate"),
      };
      // A 404 inside a session means the session is over (a stdio server's process died, a
      // server restarted): the connection is gone, even when no call was waiting on it.
      if (response.status === 404 && new Headers(init?.headers).has("mcp-session-id")) drop(new Error(sessionEndText(body)));
      return response;
    }
    successes++;
    // Only a stream can hang a request when it breaks off; a JSON body that breaks rejects the
    // SDK's response.json() itself. Wrapping every body cost each call a second stream.
    return (response.headers.get("content-type") ?? "").includes("text/event-stream") ? watchBody(response) : response;
  };

  return {
    fetch,
    get lastFailure() {
      return lastFailure;
    },
    get successes() {
      return successes;
    },
    get lastNetworkError() {
      return lastNetworkError;
    },
    watchForDrops(callback) {
      onDrop = callback;
    },
    stopWatching() {
      onDrop = undefined;
    },
  };
}
