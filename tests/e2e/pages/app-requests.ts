import type { Page } from "@playwright/test";

/** One HTTP request the page made to the app or a server, however it travelled. */
export interface PageRequest {
  url: string;
  method: string;
  body: string;
}

/**
 * Calls `listener` for every request the page makes: plain HTTP ones, and the ones it carries on
 * its channel to the app (docs/channel.md, "The channel"), read from the WebSocket's
 * `open` frames. Attach before the page loads.
 */
export function observePageRequests(page: Page, listener: (request: PageRequest) => void): void {
  page.on("request", (request) => listener({ url: request.url(), method: request.method(), body: request.postData() ?? "" }));
  page.on("websocket", (socket) => {
    const origin = new URL(socket.url()).origin.replace(/^ws/, "http");
    socket.on("framesent", ({ payload }) => {
      if (typeof payload !== "string" || !payload.startsWith('{"t":"open"')) return;
      try {
        const frame = JSON.parse(payload) as { method: string; path: string; body?: string };
        listener({ url: `${origin}${frame.path}`, method: frame.method, body: frame.body ?? "" });
      } catch {
        // Not a frame of ours.
      }
    });
  });
}
