/**
 * One channel's life at the app's end (docs/channel.md, "The channel"), from its `hello` to its
 * close: the streams it carries (each a Fetch request for `dispatch`, with the upgrade's Host,
 * Origin and forwarding headers), the page's credit on each, the socket's high-water mark, the
 * heartbeat that proves the page reads, the page's pings answered from a token bucket, and the
 * bad frames that close it. channel-server.ts takes the upgrade and hands the socket here.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { RawData, WebSocket } from "ws";
import {
  CHANNEL_ID_HEADER,
  CHANNEL_VERSION,
  encodeData,
  parseClientFrame,
  type ClientFrame,
  type FailCode,
  type HeaderPairs,
  type ServerFrame,
} from "../channel-protocol";
import type { LocalRateLimiter } from "../../http/rate-limit";
import type { ChannelDispatch, ChannelServerLimits, ChannelStats } from "./channel-server";

/** What one channel shares with the app's end: its limits, its counters, the pong bucket, the routes. */
export interface ChannelContext {
  limits: ChannelServerLimits;
  stats: ChannelStats;
  /** One token bucket per channel, keyed by its id. */
  pongs: LocalRateLimiter;
  dispatch: ChannelDispatch;
  onChannelClosed?: (channelId: string, pageGone: boolean) => void;
}

/** Largest body slice in one binary frame. */
const SLICE_BYTES = 64 * 1024;
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

interface Stream {
  aborter: AbortController;
  credit: number;
  /** Request body bytes this stream holds (counted against maxBodyBytesInFlight). */
  bodyBytes: number;
  wake?: () => void;
  reader?: ReadableStreamDefaultReader<Uint8Array>;
}

/** Serves one channel on its socket until it closes; `onClose` gives its slot back. */
export function serveChannel(ws: WebSocket, upgrade: Headers, onClose: () => void, context: ChannelContext): void {
  const { limits, stats, pongs } = context;
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
      const pending = context.dispatch(request);
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
    context.onChannelClosed?.(channelId, code === 1000 || code === 1001);
  });
  ws.on("error", () => undefined);
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return data.toString("utf8");
}
