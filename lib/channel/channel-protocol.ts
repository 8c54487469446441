/**
 * The page's one channel to the app: HTTP requests multiplexed over one WebSocket
 * (docs/channel.md, "The channel"). A browser keeps at most six HTTP/1.1 connections per
 * origin, shared by its tabs, and an MCP event stream or a POST answered as a stream holds one
 * for as long as it lasts; WebSockets do not count against the six. Types and frame codecs only;
 * the page's end is browser/channel-client.ts, the app's end node/channel-server.ts.
 *
 * Control frames are JSON text; response body bytes are binary frames, a 4-byte big-endian
 * stream id followed by the bytes. Per stream, the server sends at most `window` body bytes the
 * page has not yet credited back, so one stream cannot fill the socket ahead of the others.
 */
import { isRecord } from "../text/json-value";

/** The path the page upgrades on. */
export const CHANNEL_PATH = "/api/channel";

/**
 * The header the app's end sets on every request it carries: the channel's own id, which the
 * page cannot set. The stdio bridge ties the sessions a page starts to its channel with it, so
 * a closed tab's servers end (lib/mcp/stdio/server/stdio-sessions.ts).
 */
export const CHANNEL_ID_HEADER = "x-cmp-channel";

/** Body bytes the app sends on a stream ahead of the page's credit, unless its `hello` says otherwise. */
export const DEFAULT_WINDOW = 256 * 1024;

/** Protocol version, in `hello`. */
export const CHANNEL_VERSION = 1;

/** Paths the page sends through the channel; everything else stays a plain fetch. */
export const CHANNEL_ROUTES: readonly RegExp[] = [
  /^\/api\/mcp\/(proxy|stdio)(\/|$)/,
  /^\/api\/demo-mcp\//,
  /^\/api\/codemode\/runs$/,
  /^\/api\/chat(\/providers)?$/,
];

/** True when the page sends requests for `pathname` through the channel. */
export function isChannelPath(pathname: string): boolean {
  return CHANNEL_ROUTES.some((pattern) => pattern.test(pathname));
}

/** Header pairs, in order (a name may repeat). */
export type HeaderPairs = [string, string][];

/** Page → app. */
export type ClientFrame =
  | { t: "open"; id: number; method: string; path: string; headers: HeaderPairs; body?: string; body64?: string }
  | { t: "credit"; id: number; bytes: number }
  | { t: "cancel"; id: number }
  | { t: "ping"; n: number };

/** The limits the app announces in `hello`. */
export interface ChannelLimits {
  /** Body bytes the app sends on a stream ahead of the page's credit. */
  window: number;
  /** Streams open at once on one channel. */
  maxStreams: number;
  /** Bytes of one frame (a request with its body). */
  maxFrameBytes: number;
}

/** App → page (text frames; body bytes travel in binary frames). */
export type ServerFrame =
  | { t: "hello"; v: number; limits: ChannelLimits }
  | { t: "head"; id: number; status: number; headers: HeaderPairs }
  | { t: "end"; id: number }
  | { t: "fail"; id: number; code: string; message: string }
  | { t: "pong"; n: number };

/** Frame codes in `fail`: why a stream ended without its answer. */
export type FailCode = "too_many_streams" | "bad_request" | "not_routable" | "too_large" | "internal" | "closing";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const MAX_ID = 0xffff_ffff;
const isId = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value > 0 && value <= MAX_ID;
const isPairs = (value: unknown): value is HeaderPairs =>
  Array.isArray(value) &&
  value.length <= 200 &&
  value.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string" && typeof pair[1] === "string");

/** A frame's JSON object, or undefined when the text is not one. */
function objectOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a page frame, or undefined when it is not one (the app closes the channel then). */
export function parseClientFrame(text: string): ClientFrame | undefined {
  const frame = objectOf(text);
  if (!frame) return undefined;
  switch (frame.t) {
    case "open":
      if (!isId(frame.id) || typeof frame.method !== "string" || !METHODS.has(frame.method)) return undefined;
      if (typeof frame.path !== "string" || !frame.path.startsWith("/") || frame.path.startsWith("//") || frame.path.length > 8_192) return undefined;
      if (!isPairs(frame.headers)) return undefined;
      if (frame.body !== undefined && typeof frame.body !== "string") return undefined;
      if (frame.body64 !== undefined && typeof frame.body64 !== "string") return undefined;
      return frame as ClientFrame;
    case "credit":
      return isId(frame.id) && typeof frame.bytes === "number" && Number.isInteger(frame.bytes) && frame.bytes > 0 ? (frame as ClientFrame) : undefined;
    case "cancel":
      return isId(frame.id) ? (frame as ClientFrame) : undefined;
    case "ping":
      return typeof frame.n === "number" ? (frame as ClientFrame) : undefined;
    default:
      return undefined;
  }
}

/** Parses an app frame, or undefined when it is not one. */
export function parseServerFrame(text: string): ServerFrame | undefined {
  const frame = objectOf(text);
  if (!frame) return undefined;
  switch (frame.t) {
    case "hello":
      return typeof frame.v === "number" && typeof frame.limits === "object" && frame.limits !== null ? (frame as ServerFrame) : undefined;
    case "head":
      return isId(frame.id) && typeof frame.status === "number" && isPairs(frame.headers) ? (frame as ServerFrame) : undefined;
    case "end":
      return isId(frame.id) ? (frame as ServerFrame) : undefined;
    case "fail":
      return isId(frame.id) && typeof frame.code === "string" && typeof frame.message === "string" ? (frame as ServerFrame) : undefined;
    case "pong":
      return typeof frame.n === "number" ? (frame as ServerFrame) : undefined;
    default:
      return undefined;
  }
}

/** A binary body frame: the stream id, then the bytes. */
export function encodeData(id: number, bytes: Uint8Array): Uint8Array {
  const frame = new Uint8Array(4 + bytes.byteLength);
  new DataView(frame.buffer).setUint32(0, id);
  frame.set(bytes, 4);
  return frame;
}

/** The stream id and bytes of a binary body frame, or undefined when it is too short. */
export function decodeData(frame: Uint8Array): { id: number; bytes: Uint8Array } | undefined {
  if (frame.byteLength < 4) return undefined;
  const id = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0);
  return { id, bytes: frame.subarray(4) };
}

/** Statuses whose responses have no body (a Response with one cannot be built). */
export function isNullBodyStatus(status: number): boolean {
  return status === 101 || status === 204 || status === 205 || status === 304;
}

/**
 * A request body as an `open` frame carries it: text as is, a form as its text, bytes in base64.
 * Sets the content type a fetch would have set when `headers` has none.
 */
export async function encodeBody(init: RequestInit, headers: Headers): Promise<{ body?: string; body64?: string }> {
  const body = init.body;
  if (body === undefined || body === null) return {};
  if (typeof body === "string") {
    if (!headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
    return { body };
  }
  if (body instanceof URLSearchParams) {
    if (!headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
    return { body: body.toString() };
  }
  let bytes: Uint8Array;
  if (body instanceof Blob) bytes = new Uint8Array(await body.arrayBuffer());
  else if (body instanceof ArrayBuffer) bytes = new Uint8Array(body);
  else if (ArrayBuffer.isView(body)) bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  else throw new TypeError("The channel carries string, form and byte bodies only.");
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { body64: btoa(binary) };
}
