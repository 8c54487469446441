/**
 * The app's end of the page's channel (Node only): WebSocket upgrades on CHANNEL_PATH, each
 * carrying many HTTP requests at once (docs/channel.md, "The channel"; the frames are in
 * ../channel-protocol.ts). Stands on `ws` for the WebSocket itself.
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
import { randomBytes, randomUUID } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import {
  CHANNEL_ID_HEADER,
  CHANNEL_PATH,
  CHANNEL_VERSION,
  DEFAULT_WINDOW,
  encodeData,
  parseClientFrame,
  type ChannelLimits,
  type ClientFrame,
  type FailCode,
  type HeaderPairs,
  type ServerFrame,
} from "../channel-protocol";
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

/** Largest body slice in one binary frame. */
const SLICE_BYTES = 64 * 1024;
/** Pings the app answers back to back, then at most PONGS_PER_SECOND; the page pings every 10 s. */
const PONG_BURST = 8;
const PONGS_PER_SECOND = 2;
/** Pings past that rate a channel may send before it is closed with 1008. */
const MAX_PINGS_IGNORED = 32;
/** How long a channel closed by the app waits for its close frame to leave before its socket is cut. */
const CLOSE_GRACE_MS = 1_000;

/** Headers a carried request takes from the upgrade, whatever the page sent. */
const FROM_UPGRADE = ["host", "origin", "sec-fetch-site", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "forwarded"];
/** Headers the page may not set on a carried request (hop by hop, or the upgrade's own). */
const DROPPED = new Set([
  ...FROM_UPGRADE,
  CHANNEL_ID_HEADER,
  "cookie",
  "connection",
  "upgrade",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "content-length",
  "proxy-authorization",
  "proxy-connection",
  "sec-fetch-mode",
  "sec-fetch-dest",
  "sec-fetch-user",
]);

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

interface Stream {
  aborter: AbortController;
  credit: number;
  /** Request body bytes this stream holds (counted against maxBodyBytesInFlight). */
  bodyBytes: number;
  wake?: () => void;
  reader?: ReadableStreamDefaultReader<Uint8Array>;
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
      serveChannel(ws, headers, release);
    });
    return true;
  }

  function serveChannel(ws: WebSocket, upgrade: Headers, onClose: () => void): void {
    const streams = new Map<number, Stream>();
    const channelId = randomUUID();
    const base = `http://${upgrade.get("host") ?? "localhost"}`;
    const fixed = FROM_UPGRADE.flatMap((name) => {
      const value = upgrade.get(name);
      return value === null ? [] : [[name, value] as [string, string]];
    });
    let drainWaiters: (() => void)[] = [];
    let bodyBytesInFlight = 0;
    let closing = false;

    /** Closes the channel from the app's side, then cuts the socket if the close frame cannot leave. */
    const drop = (code: number, why: string) => {
      if (closing) return;
      closing = true;
      for (const id of [...streams.keys()]) cancel(id);
      if (ws.readyState === ws.OPEN) ws.close(code, why.slice(0, 120));
      // Nothing the page sends now matters: its frames stay unread until the socket is cut.
      ws.pause();
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref?.();
    };
    // While the socket's buffer is over the high-water mark the app reads nothing more from the
    // page (ws.pause stops reading the socket), so nothing the page sends can queue more answers.
    const throttleReads = () => {
      if (ws.bufferedAmount > limits.socketHighWater) {
        if (!ws.isPaused) ws.pause();
        if (ws.bufferedAmount > 2 * limits.socketHighWater) {
          stats.dropped.stalled += 1;
          drop(1008, "the page does not read its channel");
        }
      } else if (ws.isPaused && ws.bufferedAmount <= limits.socketHighWater / 2) ws.resume();
    };
    const send = (frame: ServerFrame) => {
      if (ws.readyState !== ws.OPEN || closing) return;
      ws.send(JSON.stringify(frame), afterSend);
      throttleReads();
    };
    const afterSend = () => {
      throttleReads();
      if (ws.bufferedAmount > limits.socketHighWater / 2 || drainWaiters.length === 0) return;
      const waiting = drainWaiters;
      drainWaiters = [];
      waiting.forEach((wake) => wake());
    };
    /** Waits for the socket's buffer to fall under the high-water mark once; callers re-check it. */
    const drainedOnce = () => new Promise<void>((resolve) => drainWaiters.push(resolve));
    const overHighWater = () => ws.bufferedAmount > limits.socketHighWater && ws.readyState === ws.OPEN;

    const fail = (id: number, code: FailCode, message: string) => send({ t: "fail", id, code, message });
    const forget = (id: number): Stream | undefined => {
      const stream = streams.get(id);
      if (!stream) return undefined;
      streams.delete(id);
      bodyBytesInFlight -= stream.bodyBytes;
      return stream;
    };
    const finish = (id: number) => forget(id)?.wake?.();
    const cancel = (id: number) => {
      const stream = forget(id);
      if (!stream) return;
      stream.aborter.abort(new DOMException("The page cancelled this request", "AbortError"));
      void stream.reader?.cancel().catch(() => undefined);
      stream.wake?.();
    };
    const protocolError = (why: string) => {
      stats.badFrames += 1;
      drop(1008, why);
    };

    // Only a pong that echoes the last ping's random payload counts: the page has to read
    // everything queued before the ping to see it, so a page that writes but never reads is
    // dropped whatever it sends.
    let nonce = randomBytes(8);
    let alive = true;
    const heartbeat = setInterval(() => {
      if (closing) return;
      if (!alive) {
        stats.dropped.heartbeat += 1;
        drop(1008, "no answer to the heartbeat");
        return;
      }
      alive = false;
      nonce = randomBytes(8);
      if (ws.readyState === ws.OPEN) ws.ping(nonce);
    }, limits.pingIntervalMs);
    heartbeat.unref?.();
    ws.on("pong", (data: Buffer) => {
      if (data.equals(nonce)) alive = true;
    });
    // The page's own pings, answered from the server's token bucket (PONG_BURST, then PONGS_PER_SECOND).
    let pingsIgnoredHere = 0;

    send({ t: "hello", v: CHANNEL_VERSION, limits: { window: limits.window, maxStreams: limits.maxStreams, maxFrameBytes: limits.maxFrameBytes } });

    ws.on("message", (data: RawData, isBinary: boolean) => {
      if (closing) return;
      if (isBinary) return protocolError("the page sends text frames only");
      const frame = parseClientFrame(rawText(data));
      if (!frame) return protocolError("malformed frame");
      switch (frame.t) {
        case "ping":
          if (pongs.take(channelId).ok) return send({ t: "pong", n: frame.n });
          stats.pingsIgnored += 1;
          // The page pings every 10 s; a channel that floods pings is not a page.
          if (++pingsIgnoredHere > MAX_PINGS_IGNORED) protocolError("pings far faster than the heartbeat needs");
          return;
        case "cancel":
          return cancel(frame.id);
        case "credit": {
          const stream = streams.get(frame.id);
          if (!stream) return;
          stream.credit = Math.min(stream.credit + frame.bytes, limits.window * 4);
          stream.wake?.();
          return;
        }
        case "open":
          if (streams.has(frame.id)) return protocolError("stream id in use");
          return open(frame);
      }
    });

    const open = (frame: Extract<ClientFrame, { t: "open" }>) => {
      const { id } = frame;
      if (streams.size >= limits.maxStreams) {
        stats.refusedStreams += 1;
        return fail(id, "too_many_streams", `At most ${limits.maxStreams} requests at once on one channel.`);
      }
      let body: Uint8Array<ArrayBuffer> | undefined;
      if (frame.body64 !== undefined) body = new Uint8Array(Buffer.from(frame.body64, "base64"));
      else if (frame.body !== undefined) body = new TextEncoder().encode(frame.body);
      if (body && (frame.method === "GET" || frame.method === "HEAD")) {
        stats.refusedStreams += 1;
        return fail(id, "bad_request", `A ${frame.method} request has no body.`);
      }
      const bodyBytes = body?.byteLength ?? 0;
      if (bodyBytesInFlight + bodyBytes > limits.maxBodyBytesInFlight) {
        stats.refusedStreams += 1;
        return fail(id, "too_large", `This channel already holds ${limits.maxBodyBytesInFlight} bytes of request bodies; retry when some finish.`);
      }
      const headers = new Headers();
      for (const [name, value] of frame.headers) {
        const lower = name.toLowerCase();
        if (DROPPED.has(lower)) continue;
        try {
          headers.append(lower, value);
        } catch {
          stats.refusedStreams += 1;
          return fail(id, "bad_request", "A header of this request is not valid.");
        }
      }
      for (const [name, value] of fixed) headers.set(name, value);
      headers.set(CHANNEL_ID_HEADER, channelId);
      if (body) headers.set("content-length", String(body.byteLength));
      const aborter = new AbortController();
      const stream: Stream = { aborter, credit: limits.window, bodyBytes };
      streams.set(id, stream);
      bodyBytesInFlight += bodyBytes;
      stats.streamsOpened += 1;
      let request: Request;
      try {
        request = new Request(new URL(frame.path, base), { method: frame.method, headers, signal: aborter.signal, ...(body ? { body } : {}) });
      } catch {
        forget(id);
        stats.refusedStreams += 1;
        return fail(id, "bad_request", "This request could not be built.");
      }
      void answer(id, stream, request);
    };

    const answer = async (id: number, stream: Stream, request: Request) => {
      let response: Response | undefined;
      try {
        const pending = options.dispatch(request);
        if (!pending) {
          stats.refusedStreams += 1;
          fail(id, "not_routable", "Nothing on the channel answers this path.");
          return finish(id);
        }
        response = await pending;
      } catch {
        if (streams.has(id)) fail(id, "internal", "The server could not handle this request.");
        return finish(id);
      }
      if (!streams.has(id)) {
        await response.body?.cancel().catch(() => undefined);
        return;
      }
      const headers: HeaderPairs = [];
      response.headers.forEach((value, name) => headers.push([name, value]));
      send({ t: "head", id, status: response.status, headers });
      if (!response.body) {
        send({ t: "end", id });
        return finish(id);
      }
      const reader = response.body.getReader();
      stream.reader = reader;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || !streams.has(id)) break;
          for (let offset = 0; offset < value.byteLength;) {
            while (stream.credit <= 0 && streams.has(id)) await new Promise<void>((resolve) => (stream.wake = resolve));
            stream.wake = undefined;
            // Checked right before each slice, with no await between the check and the write:
            // streams woken together re-check, so the buffer passes the mark by one slice at most.
            while (overHighWater()) await drainedOnce();
            if (!streams.has(id)) return;
            const size = Math.min(stream.credit, SLICE_BYTES, value.byteLength - offset);
            if (ws.readyState !== ws.OPEN || closing) return;
            ws.send(encodeData(id, value.subarray(offset, offset + size)), { binary: true }, afterSend);
            stream.credit -= size;
            offset += size;
          }
        }
        if (streams.has(id)) send({ t: "end", id });
      } catch {
        if (streams.has(id)) fail(id, "internal", "The answer's stream broke off.");
      } finally {
        // Left because the channel is closing: the handler is told, not just forgotten.
        if (ws.readyState === ws.OPEN && !closing) finish(id);
        else cancel(id);
      }
    };

    ws.on("close", (code: number) => {
      clearInterval(heartbeat);
      for (const id of [...streams.keys()]) cancel(id);
      const waiting = drainWaiters;
      drainWaiters = [];
      waiting.forEach((wake) => wake());
      onClose();
      options.onChannelClosed?.(channelId, code === 1000 || code === 1001);
    });
    ws.on("error", () => undefined);
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

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return data.toString("utf8");
}
