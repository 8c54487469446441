/**
 * At most `max` requests in flight from the page straight to any one origin other than the
 * app's; past that, requests to that origin go through the MCP proxy on the page's channel
 * (docs/channel.md, "The channel"). A browser keeps six HTTP/1.1 connections per origin,
 * and one MCP server's standalone GET stream plus its POSTs answered as streams while tools run
 * would take them all: a program's parallel calls to one server would queue behind each other.
 * A request counts until its body has been read, cancelled or failed.
 *
 * When the proxy refuses the target (a hosted app refuses private addresses the browser itself
 * can reach), the request goes direct after all and waits its turn as before. Pure: both fetches
 * are injected.
 */
import type { FetchLike } from "./proxy-fetch";

/** Options of `capPerOrigin`. */
export interface OriginCapOptions {
  /** Requests in flight per origin before the rest are diverted. */
  max: number;
  /** The app's own origin: its requests are never counted or diverted (they ride the channel). */
  appOrigin: string;
}

const urlOf = (input: string | URL): URL => new URL(typeof input === "string" ? input : input.href);

/** True when `response` is the proxy refusing its target (403 `refused:proxy`). */
async function refusedByProxy(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return body.error?.code === "refused:proxy";
  } catch {
    return false;
  }
}

/** The same response, whose body calls `release` once read to its end, cancelled or failed. */
function heldUntilRead(response: Response, release: () => void): Response {
  if (!response.body) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  let released = false;
  const finish = () => {
    if (released) return;
    released = true;
    release();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          finish();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A fetch that sends at most `options.max` requests at once straight to each origin and the rest to `overflow`. */
export function capPerOrigin(direct: FetchLike, overflow: FetchLike, options: OriginCapOptions): FetchLike {
  const inFlight = new Map<string, number>();
  const release = (origin: string) => {
    const left = (inFlight.get(origin) ?? 1) - 1;
    if (left <= 0) inFlight.delete(origin);
    else inFlight.set(origin, left);
  };
  return async (input, init) => {
    const origin = urlOf(input).origin;
    if (origin === options.appOrigin) return direct(input, init);
    if ((inFlight.get(origin) ?? 0) >= options.max) {
      const diverted = await overflow(input, init);
      if (!(await refusedByProxy(diverted))) return diverted;
      await diverted.body?.cancel().catch(() => undefined);
    }
    inFlight.set(origin, (inFlight.get(origin) ?? 0) + 1);
    let response: Response;
    try {
      response = await direct(input, init);
    } catch (error) {
      release(origin);
      throw error;
    }
    return heldUntilRead(response, () => release(origin));
  };
}
