/**
 * The page's one channel to the app, made once on first use (docs/channel.md, "The
 * channel"). Everything in the page that talks to the app's API takes `appFetch`: the MCP
 * connections (demo servers, the proxy, the stdio bridge), OAuth requests through the proxy,
 * model steps, the runs feed. The status banner subscribes to `appChannel()`.
 */
import { createChannelClient, type ChannelClient, type ChannelFetch } from "./channel-client";

let channel: ChannelClient | undefined;

/**
 * The page's channel (browser only: it needs `location`). `?channel=off` in the page's address
 * switches it off: every request is a plain fetch, to compare the two paths or rule it out.
 */
export function appChannel(): ChannelClient {
  channel ??= createChannelClient({ origin: window.location.origin, disabled: new URLSearchParams(window.location.search).get("channel") === "off" });
  return channel;
}

/** A fetch that sends the app's API requests through the page's channel and everything else as usual. */
export const appFetch: ChannelFetch = (input, init) => appChannel().fetch(input, init);
