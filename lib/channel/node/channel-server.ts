/**
 * The app's end of the page's channel (Node only): WebSocket upgrades on CHANNEL_PATH, each
 * carrying many HTTP requests at once (docs/channel.md, "The channel"; the frames are in
 * ../channel-protocol.ts). Stands on `ws` for the WebSocket itself. This file takes the upgrade;
 * one channel's life after it (streams, credit, heartbeat, pings, bad frames) is channel-connection.ts.
 *
 * - **The upgrade** passes the routes' own walls first: an allowed Host and this app's Origin
 *   (checkUpgrade), then a cap on channels per client and in all. A slot is taken when the
 *   upgrade is handed to `ws` and given back when its socket closes, whichever way the attempt
 *   ends (`ws` refusing the handshake, the socket dying mid-handshake, the channel closing).
 * - **Every request on it** becomes a Fetch `Request` answered by `dispatch`, the same guarded
 *   handlers the HTTP routes use. Its Host, Origin, Sec-Fetch-Site and forwarding headers are the
 *   upgrade's, never the page's: the page cannot claim to be another origin or another client.
 * - **Streams are bounded**: at most `maxStreams` at once, at most `window` body bytes ahead of
 *   the page's credit on each, at most `maxBodyBytesInFlight` of request bodies held at once,
 *   and a body slice waits for the socket's buffer to fall under `socketHighWater` before it
 *   is written, so a flooding stream waits for its reader instead of queuing ahead of the others.
 * - **Every byte queued toward the page is bounded**: while the socket's buffer is over
 *   `socketHighWater` the app stops reading the page's frames (TCP backpressure), so control
 *   answers (`fail`, `pong`) cannot pile up; past twice that the channel closes with 1008.
 *   Pings are answered at most `PONG_BURST` at once and `PONGS_PER_SECOND` after that; a
 *   channel that sends MAX_PINGS_IGNORED more than that is closed with 1008.
 * - **Heartbeat**: the app pings with a fresh random payload; only a pong echoing it proves the
 *   page reads, so a page that sends but never reads is dropped within two ping intervals.
 * - **Its id**: every carried request says which channel it came by (CHANNEL_ID_HEADER, set
 *   here, never by the page), and `onChannelClosed` hears when one closes.
 * - **Bad frames** (not JSON, an unknown type, a reused id, binary from the page) close the
 *   channel with 1008; every refusal is counted in `stats`.
 */
import type http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { CHANNEL_PATH, DEFAULT_WINDOW, type ChannelLimits } from "../channel-protocol";
import { serveChannel } from "./channel-connection";
import { createRateLimiter } from "../../http/rate-limit";
import { createSlotCounter, type ChannelSlots } from "./channel-slots";
import { RouteError } from "../../http/route-error";

/** Answers one request the channel carries, or undefined when no route serves its path. */
export type ChannelDispatch = (request: Request) => Promise<Response> | undefined;

/** Options of `createChannelServer`. */
export interface ChannelServerOptions {
  dispatch: ChannelDispatch;
  /** The refusal of an upgrade (Host, Origin), or undefined: checkUpgrade with this instance's hosts. */
  checkUpgrade: (headers: Headers) => RouteError<"channel"> | undefined;
  /** Which client an upgrade counts against (clientKey). */
  clientKey: (headers: Headers) => string;
  limits?: Partial<ChannelServerLimits>;
  /**
   * Called when a channel closes, with the id its requests carried in CHANNEL_ID_HEADER and
   * whether the page said it is gone (close code 1000 from its own close, 1001 "going away"
   * from the browser as the page unloads or reloads) rather than the connection breaking.
   */
  onChannelClosed?: (channelId: string, pageGone: boolean) => void;
}

/** Every limit of the app's end, with its default. */
export interface ChannelServerLimits extends ChannelLimits {
  /** Channels open (or in their handshake) at once per client. @defaultValue 64 */
  maxChannelsPerClient: number;
  /** Channels open (or in their handshake) at once over every client. @defaultValue 1 024 */
  maxChannels: number;
  /** Request body bytes the app holds at once for one channel's unfinished streams. @defaultValue 32 MiB */
  maxBodyBytesInFlight: number;
  /** Socket bytes queued before a stream waits to write. @defaultValue 4 MiB */
  socketHighWater: number;
  /** The app pings every channel this often and drops one that did not echo the last ping. @defaultValue 20 s */
  pingIntervalMs: number;
}

const DEFAULTS: ChannelServerLimits = {
  window: DEFAULT_WINDOW,
  maxStreams: 1_024,
  // The largest body a route takes (a chat conversation, 8 MiB) and its frame's envelope.
  maxFrameBytes: 8 * 1024 * 1024 + 64 * 1024,
  maxChannelsPerClient: 64,
  maxChannels: 1_024,
  maxBodyBytesInFlight: 32 * 1024 * 1024,
  socketHighWater: 4 * 1024 * 1024,
  pingIntervalMs: 20_000,
};

/** Pings the app answers back to back, then at most PONGS_PER_SECOND; the page pings every 10 s. */
const PONG_BURST = 8;
const PONGS_PER_SECOND = 2;

/** What the app counted since it started. */
export interface ChannelStats {
  channels: number;
  streamsOpened: number;
  /** Upgrades refused, by reason (`too_many`: a cap per client or in all). */
  refusedUpgrades: Record<"path" | "host" | "origin" | "too_many", number>;
  /** Streams refused (too many at once, a body too large, nothing routes there). */
  refusedStreams: number;
  /** Channels closed for a malformed frame. */
  badFrames: number;
  /** Channels the app dropped: no echo of its ping (`heartbeat`), or more queued than it holds (`stalled`). */
  dropped: Record<"heartbeat" | "stalled", number>;
  /** Pings from the page left unanswered because they came faster than PONGS_PER_SECOND. */
  pingsIgnored: number;
}

/** The app's end of the channel. */
export interface ChannelServer {
  /** Takes an upgrade on CHANNEL_PATH (true), or leaves the socket alone (false). */
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): boolean;
  readonly stats: ChannelStats;
  /** Open channels (for tests and the bench). */
  readonly openChannels: number;
  /** Bytes queued toward the pages on every open channel's socket (for tests and the bench). */
  readonly queuedBytes: number;
  /** Slots taken against the caps (for tests: every refused path gives its slot back). */
  readonly slots: ChannelSlots;
  /** Closes every channel (1001) and stops accepting. */
  close(): void;
}

function headersOf(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

function refuseUpgrade(socket: Duplex, status: number, error: RouteError): void {
  const body = JSON.stringify({ error: { code: error.code, message: error.message } });
  const reason = status === 429 ? "Too Many Requests" : status === 404 ? "Not Found" : "Forbidden";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\ncache-control: no-store\r\n\r\n${body}`,
  );
}

/** Starts the app's end of the channel; `handleUpgrade` is for the HTTP server's `upgrade` event. */
export function createChannelServer(options: ChannelServerOptions): ChannelServer {
  const limits: ChannelServerLimits = { ...DEFAULTS, ...options.limits };
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes, perMessageDeflate: false, clientTracking: true });
  const slots = createSlotCounter();
  // One token bucket per channel (keyed by its id; at most maxChannels are live at once).
  const pongs = createRateLimiter({ limit: PONG_BURST, windowMs: (PONG_BURST / PONGS_PER_SECOND) * 1_000, maxKeys: 2 * limits.maxChannels });
  const stats: ChannelStats = {
    channels: 0,
    streamsOpened: 0,
    refusedUpgrades: { path: 0, host: 0, origin: 0, too_many: 0 },
    refusedStreams: 0,
    badFrames: 0,
    dropped: { heartbeat: 0, stalled: 0 },
    pingsIgnored: 0,
  };

  function handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = (req.url ?? "").split("?")[0];
    if (path !== CHANNEL_PATH) return false;
    const headers = headersOf(req);
    const refusal = options.checkUpgrade(headers);
    if (refusal) {
      stats.refusedUpgrades[refusal.causeKind === "host" ? "host" : "origin"] += 1;
      refuseUpgrade(socket, refusal.status, refusal);
      return true;
    }
    const client = options.clientKey(headers);
    const tooMany =
      slots.held(client) >= limits.maxChannelsPerClient
        ? `At most ${limits.maxChannelsPerClient} channels per client; close a tab of the playground.`
        : slots.total >= limits.maxChannels
          ? `The app holds at most ${limits.maxChannels} channels at once; try again shortly.`
          : undefined;
    if (tooMany) {
      stats.refusedUpgrades.too_many += 1;
      refuseUpgrade(socket, 429, new RouteError("too_many:channel", tooMany));
      return true;
    }
    // A socket that died before we got it has already said "close": nothing to count.
    if (socket.destroyed) return true;
    // The slot goes back when the socket closes, on every path: `ws` refusing the handshake
    // (it answers 400 and never calls back), the socket dying mid-handshake, the channel ending.
    const release = slots.take(client);
    socket.once("close", release);
    wss.handleUpgrade(req, socket, head, (ws) => {
      stats.channels += 1;
      serveChannel(ws, headers, release, {
        limits,
        stats,
        pongs,
        dispatch: options.dispatch,
        ...(options.onChannelClosed ? { onChannelClosed: options.onChannelClosed } : {}),
      });
    });
    return true;
  }

  return {
    handleUpgrade,
    stats,
    get openChannels() {
      return wss.clients.size;
    },
    get queuedBytes() {
      let total = 0;
      for (const client of wss.clients) total += client.bufferedAmount;
      return total;
    },
    get slots() {
      return slots.snapshot();
    },
    close() {
      for (const client of wss.clients) client.close(1001, "the app is stopping");
      wss.close();
    },
  };
}
