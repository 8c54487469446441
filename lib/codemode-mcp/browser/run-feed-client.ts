/**
 * The page's subscription to the code-mode MCP endpoint's runs (GET /api/codemode/runs, server-
 * sent events, local mode only: it carries the terminal's token like the stdio bridge). Each
 * `run` event is a record so far; the page puts it into its run history, replacing the
 * previous copy. Reconnects with backoff while the page lives; a refusal (no token, hosted
 * mode) ends it.
 */
import { createParser } from "eventsource-parser";
import { appFetch } from "../../channel/browser/app-channel";
import { LOCAL_TOKEN_HEADER } from "../../mcp/stdio/stdio-protocol";
import type { FeedUpdate } from "../run-feed";

export const RUN_FEED_PATH = "/api/codemode/runs";

/** Whether the endpoint is configured, as the server says when the stream opens. */
export type FeedStatus = { on: true } | { on: false; reason: string };

export interface FeedHandlers {
  onUpdate: (update: FeedUpdate) => void;
  onStatus?: (status: FeedStatus) => void;
}

function isUpdate(value: unknown): value is FeedUpdate {
  const v = value as FeedUpdate | null;
  return (
    typeof v === "object" && v !== null && typeof v.done === "boolean" && typeof v.record === "object" && v.record !== null && Array.isArray(v.record.events)
  );
}

/** Subscribes until `signal` aborts. */
export async function followRunFeed(token: string, handlers: FeedHandlers, signal: AbortSignal, fetchImpl: typeof fetch = appFetch): Promise<void> {
  let delay = 1_000;
  while (!signal.aborted) {
    try {
      const response = await fetchImpl(RUN_FEED_PATH, { headers: { [LOCAL_TOKEN_HEADER]: token, accept: "text/event-stream" }, signal, cache: "no-store" });
      if (response.status === 403 || response.status === 404) return;
      if (!response.ok || !response.body) throw new Error(`feed answered ${response.status}`);
      delay = 1_000;
      const parser = createParser({
        onEvent: (event) => {
          let data: unknown;
          try {
            data = JSON.parse(event.data) as unknown;
          } catch {
            return;
          }
          if (event.event === "status") handlers.onStatus?.(data as FeedStatus);
          else if (event.event === "run" && isUpdate(data)) handlers.onUpdate(data);
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30_000);
  }
}
