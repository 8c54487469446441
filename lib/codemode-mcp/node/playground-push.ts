/**
 * Sends a stdio code-mode MCP server's runs to a running playground (POST /api/codemode/runs
 * with the terminal's token), so they show in its page live like the app endpoint's own runs.
 * The link is the one `npm start` prints (`http://127.0.0.1:3000/#cmp-token=…`). Per run, only
 * the newest update waits while one is being sent; a playground that is down costs one warning.
 */
import { LOCAL_TOKEN_FRAGMENT, LOCAL_TOKEN_HEADER } from "../../mcp/stdio/stdio-protocol";
import type { FeedUpdate } from "../run-feed";
import { messageOf } from "../../text/error-message";

/** Reads the playground's link; throws with what is wrong. */
export function parsePlaygroundLink(link: string): { url: string; token: string } {
  let parsed: URL;
  try {
    parsed = new URL(link);
  } catch {
    throw new Error(`--playground takes the link \`npm start\` printed (http://127.0.0.1:3000/#${LOCAL_TOKEN_FRAGMENT}=…), not "${link.slice(0, 80)}"`);
  }
  const token = new URLSearchParams(parsed.hash.slice(1)).get(LOCAL_TOKEN_FRAGMENT);
  if (!token) throw new Error(`--playground: the link has no #${LOCAL_TOKEN_FRAGMENT}=…; use the whole link \`npm start\` printed`);
  return { url: new URL("/api/codemode/runs", parsed.origin).href, token };
}

/** A publisher for openCodeModeServer, and `drain` to wait for what is still being sent (before exit). */
export interface PlaygroundPublisher {
  publish: (update: FeedUpdate) => void;
  drain: () => Promise<void>;
}

export function playgroundPublisher(link: string, warn: (message: string) => void, fetchImpl: typeof fetch = fetch): PlaygroundPublisher {
  const { url, token } = parsePlaygroundLink(link);
  const pending = new Map<string, FeedUpdate>();
  const sending = new Map<string, Promise<void>>();
  let warned = false;
  const post = async (update: FeedUpdate) => {
    try {
      const response = await fetchImpl(url, {
        method: "POST",
        headers: { "content-type": "application/json", [LOCAL_TOKEN_HEADER]: token },
        body: JSON.stringify(update),
      });
      if (!response.ok) throw new Error(`it answered ${response.status}`);
    } catch (error) {
      if (!warned) warn(`runs are not reaching the playground at ${url}: ${messageOf(error)}`);
      warned = true;
    }
  };
  const flush = (id: string) => {
    if (sending.has(id)) return;
    const sent = (async () => {
      for (let next = pending.get(id); next; next = pending.get(id)) {
        pending.delete(id);
        await post(next);
      }
    })().finally(() => sending.delete(id));
    sending.set(id, sent);
  };
  return {
    publish: (update) => {
      pending.set(update.record.id, update);
      flush(update.record.id);
    },
    drain: async () => {
      while (sending.size > 0) await Promise.all(sending.values());
    },
  };
}
