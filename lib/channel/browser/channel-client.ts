/**
 * The page's end of its one channel to the app (docs/channel.md, "The channel"; frames in
 * ../channel-protocol.ts). `channel.fetch` is a drop-in fetch: a request for one of the app's
 * API paths (`isChannelPath`) becomes a stream on the channel's WebSocket, anything else goes to
 * the browser's fetch. So MCP transports, the stdio bridge, the proxy, the runs feed and model
 * steps hold no HTTP connection to the app while they stream or wait for a person.
 *
 * - Until the first `hello`, and while the channel reconnects, requests wait (their abort
 *   signals still end them); a channel that never opened (a server without one) is
 *   `unavailable` and requests go over plain HTTP.
 * - When the channel drops, every open stream fails at once with a TypeError (as a network
 *   failure does), so an MCP transport's own retry with Last-Event-ID takes over where the
 *   server offers it, and a call fails with a clear error where it does not.
 * - Heartbeat: a ping every `pingIntervalMs`; no frame for `deadAfterMs` closes and reconnects.
 * - Reconnects with exponential backoff (250 ms doubling to 10 s, with jitter); `status` says
 *   so in words for the page's banner.
 */
import type { ReadableStore } from "../../state/store";
import {
  CHANNEL_PATH,
  DEFAULT_WINDOW,
  decodeData,
  encodeBody,
  isChannelPath,
  isNullBodyStatus,
  parseServerFrame,
  type ChannelLimits,
  type ClientFrame,
  type HeaderPairs,
} from "../channel-protocol";

/** The fetch signature the SDK transports and the AI SDK take. */
export type ChannelFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Where the channel is, as a person reads it. */
export type ChannelState = "connecting" | "open" | "reconnecting" | "unavailable" | "closed";

/** The channel's status, for the page's banner. */
export interface ChannelStatus {
  state: ChannelState;
  /** Failed attempts since it was last open. */
  attempt: number;
  /** When the next attempt starts (epoch ms), while reconnecting. */
  retryAt?: number;
  /** Why it is not open, in words. */
  message?: string;
  /** Streams open now. */
  streams: number;
}

/** A WebSocket as this file uses it (the browser's; tests pass Node's). */
export interface SocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** Options of `createChannelClient`. */
export interface ChannelClientOptions {
  /** The app's origin, e.g. location.origin. */
  origin: string;
  /** Makes the WebSocket; the browser's by default. */
  openSocket?: (url: string) => SocketLike;
  /** The fetch for everything that does not go through the channel; the browser's by default. */
  fallbackFetch?: ChannelFetch;
  /** @defaultValue 10 000 */
  pingIntervalMs?: number;
  /** @defaultValue 25 000 */
  deadAfterMs?: number;
  /** @defaultValue 10 000 */
  maxBackoffMs?: number;
  /** No channel at all: every request is a plain fetch (`?channel=off`, to compare or to rule the channel out). */
  disabled?: boolean;
}

/** The page's channel to the app. */
export interface ChannelClient extends ReadableStore<ChannelStatus> {
  fetch: ChannelFetch;
  /** Tries to connect now instead of at the scheduled time. */
  reconnectNow(): void;
  /** Closes the channel for good; open streams fail. */
  close(): void;
}

interface Pending {
  resolve: (response: Response) => void;
  reject: (error: Error) => void;
  controller?: ReadableStreamDefaultController<Uint8Array>;
  /** Body bytes received, and bytes credited back to the app. */
  received: number;
  credited: number;
  /** Whether the body has started (head seen). */
  started: boolean;
  signal?: AbortSignal;
  onAbort?: () => void;
}

const OPEN = 1;

/** Why `signal` aborted, as an Error (an AbortError unless the caller gave one). */
const abortReason = (signal: AbortSignal | undefined): Error =>
  signal?.reason instanceof Error ? signal.reason : new DOMException("The request was aborted", "AbortError");

const lost = (why: string) => new TypeError(`The connection to the app was lost (${why}); the page reconnects by itself.`);

/** Opens the page's channel (lazily: the socket opens on the first request or `reconnectNow`). */
export function createChannelClient(options: ChannelClientOptions): ChannelClient {
  const fallback: ChannelFetch = options.fallbackFetch ?? ((input, init) => fetch(input, init));
  const openSocket = options.openSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const pingEvery = options.pingIntervalMs ?? 10_000;
  const deadAfter = options.deadAfterMs ?? 25_000;
  const maxBackoff = options.maxBackoffMs ?? 10_000;
  const wsUrl = `${options.origin.replace(/^http/, "ws")}${CHANNEL_PATH}`;

  let socket: SocketLike | undefined;
  let limits: ChannelLimits | undefined;
  let everOpen = false;
  let closedForGood = false;
  let nextId = 1;
  let lastFrameAt = 0;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let status: ChannelStatus = options.disabled
    ? { state: "unavailable", attempt: 0, streams: 0, message: "The channel is switched off (?channel=off); the page uses plain HTTP requests." }
    : { state: "connecting", attempt: 0, streams: 0 };
  const pending = new Map<number, Pending>();
  const waiting = new Set<{ go: () => void; fail: (error: Error) => void }>();
  const listeners = new Set<() => void>();

  const setStatus = (next: Omit<ChannelStatus, "streams">) => {
    status = { ...next, streams: pending.size };
    listeners.forEach((listener) => listener());
  };
  const sendFrame = (frame: ClientFrame) => {
    if (socket?.readyState === OPEN) socket.send(JSON.stringify(frame));
  };

  function connect(): void {
    if (closedForGood || (socket && socket.readyState <= OPEN)) return;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    const ws = openSocket(wsUrl);
    ws.binaryType = "arraybuffer";
    socket = ws;
    let helloSeen = false;
    ws.onmessage = (event) => {
      lastFrameAt = Date.now();
      if (typeof event.data !== "string") return onData(new Uint8Array(event.data as ArrayBuffer));
      const frame = parseServerFrame(event.data);
      if (!frame) return;
      switch (frame.t) {
        case "hello":
          helloSeen = true;
          everOpen = true;
          limits = frame.limits;
          setStatus({ state: "open", attempt: 0 });
          for (const waiter of [...waiting]) waiter.go();
          return;
        case "head":
          return onHead(frame.id, frame.status, frame.headers);
        case "end":
          return onEnd(frame.id);
        case "fail":
          return onFail(frame.id, new TypeError(`The app refused this request on the channel: ${frame.message}`));
        case "pong":
          return;
      }
    };
    let ended = false;
    let opened = false;
    const onEnded = (event: { code: number; reason: string }) => {
      if (ended || socket !== ws) return;
      ended = true;
      socket = undefined;
      clearInterval(pingTimer);
      pingTimer = undefined;
      const why = event.reason || `code ${event.code}`;
      for (const id of [...pending.keys()]) onFail(id, lost(why));
      if (closedForGood) return setStatus({ state: "closed", attempt: 0 });
      if (!everOpen && !helloSeen) {
        // Never opened: this server has no channel (plain `next start`, an older build). Plain
        // HTTP serves from now on; one more try later in case the app was only starting.
        const attempt = status.attempt + 1;
        setStatus({ state: "unavailable", attempt, message: "This server offers no channel; the page uses plain HTTP requests." });
        for (const waiter of [...waiting]) waiter.go();
        if (attempt < 2) retryTimer = setTimeout(connect, 5_000);
        return;
      }
      const attempt = status.state === "open" ? 0 : status.attempt + 1;
      const delay = Math.min(maxBackoff, 250 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
      setStatus({
        state: "reconnecting",
        attempt: attempt + 1,
        retryAt: Date.now() + delay,
        message: `Lost the connection to the app (${why}): it stopped, restarted or this computer slept.`,
      });
      retryTimer = setTimeout(connect, delay);
    };
    ws.onclose = onEnded;
    // A refused handshake fires only `error` in some implementations (Node's), never `close`.
    ws.onerror = () => {
      if (!opened) onEnded({ code: 1006, reason: "" });
    };
    ws.onopen = () => {
      opened = true;
      lastFrameAt = Date.now();
      pingTimer = setInterval(() => {
        if (Date.now() - lastFrameAt > deadAfter) return ws.close(4000, "no answer to the heartbeat");
        sendFrame({ t: "ping", n: Date.now() });
      }, pingEvery);
    };
    if (status.state !== "reconnecting" && status.state !== "unavailable") setStatus({ state: "connecting", attempt: status.attempt });
  }

  function onHead(id: number, statusCode: number, headerPairs: HeaderPairs): void {
    const entry = pending.get(id);
    if (!entry || entry.started) return;
    entry.started = true;
    const headers = new Headers();
    for (const [name, value] of headerPairs) {
      try {
        headers.append(name, value);
      } catch {
        // A header the browser will not hold; the body is what matters here.
      }
    }
    if (isNullBodyStatus(statusCode)) {
      entry.resolve(new Response(null, { status: statusCode, headers }));
      return;
    }
    const window = limits?.window ?? DEFAULT_WINDOW;
    const hwm = window;
    const creditIfConsumed = (controller: ReadableStreamDefaultController<Uint8Array>) => {
      const queued = hwm - (controller.desiredSize ?? 0);
      const consumed = entry.received - Math.max(0, queued);
      if (consumed - entry.credited >= window / 4) {
        sendFrame({ t: "credit", id, bytes: consumed - entry.credited });
        entry.credited = consumed;
      }
    };
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          entry.controller = controller;
        },
        pull: (controller) => creditIfConsumed(controller),
        cancel: () => {
          if (pending.delete(id)) sendFrame({ t: "cancel", id });
          detach(entry);
          changed();
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: hwm }),
    );
    entry.resolve(new Response(body, { status: statusCode, headers }));
  }

  function onData(frame: Uint8Array): void {
    const data = decodeData(frame);
    if (!data) return;
    const entry = pending.get(data.id);
    if (!entry?.controller) return;
    entry.received += data.bytes.byteLength;
    entry.controller.enqueue(data.bytes.slice());
  }

  function onEnd(id: number): void {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    detach(entry);
    entry.controller?.close();
    changed();
  }

  function onFail(id: number, error: Error): void {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    detach(entry);
    if (entry.controller) entry.controller.error(error);
    else entry.reject(error);
    changed();
  }

  const detach = (entry: Pending) => {
    if (entry.onAbort) entry.signal?.removeEventListener("abort", entry.onAbort);
  };
  const changed = () => {
    if (status.streams !== pending.size) setStatus(status);
  };

  function whenOpen(signal: AbortSignal | undefined): Promise<void> {
    if (status.state === "open" || status.state === "unavailable") return Promise.resolve();
    connect();
    return new Promise((resolve, reject) => {
      const waiter = {
        go: () => {
          waiting.delete(waiter);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        fail: (error: Error) => {
          waiting.delete(waiter);
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      const onAbort = () => waiter.fail(abortReason(signal));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      waiting.add(waiter);
    });
  }

  async function channelRequest(url: URL, init: RequestInit): Promise<Response> {
    const signal = init.signal ?? undefined;
    const headers = new Headers(init.headers);
    const method = (init.method ?? "GET").toUpperCase();
    const body = method === "GET" || method === "HEAD" ? {} : await encodeBody(init, headers);
    await whenOpen(signal);
    if (status.state === "unavailable") return fallback(url, init);
    if (signal?.aborted) throw abortReason(signal);
    if (closedForGood) throw lost("the page closed its channel");
    const id = nextId++;
    const pairs: HeaderPairs = [];
    headers.forEach((value, name) => pairs.push([name, value]));
    return new Promise<Response>((resolve, reject) => {
      const entry: Pending = { resolve, reject, received: 0, credited: 0, started: false };
      if (signal) {
        entry.signal = signal;
        entry.onAbort = () => {
          if (!pending.delete(id)) return;
          sendFrame({ t: "cancel", id });
          const reason = abortReason(signal);
          if (entry.controller) entry.controller.error(reason);
          else reject(reason);
          changed();
        };
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      pending.set(id, entry);
      sendFrame({ t: "open", id, method, path: `${url.pathname}${url.search}`, headers: pairs, ...body });
      changed();
    });
  }

  const channelFetch: ChannelFetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), options.origin);
    if (url.origin !== options.origin || !isChannelPath(url.pathname) || status.state === "unavailable" || closedForGood) return fallback(input, init);
    if (input instanceof Request) {
      const body = input.method === "GET" || input.method === "HEAD" ? undefined : await input.arrayBuffer();
      return channelRequest(url, { method: input.method, headers: input.headers, signal: input.signal, ...(body ? { body } : {}), ...init });
    }
    return channelRequest(url, init ?? {});
  };

  return {
    fetch: channelFetch,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => status,
    reconnectNow() {
      if (status.state === "open" || options.disabled) return;
      connect();
    },
    close() {
      closedForGood = true;
      clearTimeout(retryTimer);
      for (const waiter of [...waiting]) waiter.fail(lost("the page closed its channel"));
      socket?.close(1000, "the page closed its channel");
      if (!socket) setStatus({ state: "closed", attempt: 0 });
    },
  };
}
