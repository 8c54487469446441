/**
 * The one request-body reader of every route: streams the body and stops as soon as it passes
 * a byte cap, so a client cannot make the server buffer more than the cap (a declared
 * Content-Length over the cap is refused before reading anything). Counts bytes, not UTF-16
 * code units. Framework-free: any Fetch `Request`.
 */
import { RouteError } from "./route-error";
import type { RouteSurface } from "./route-error";

/** Bytes read with a cap, or "too_large" once they pass it. */
export type CappedBytes = { ok: true; bytes: Uint8Array } | { ok: false; reason: "too_large" };

/** The body as bytes, or "too_large" once it passes `maxBytes`. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<CappedBytes> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, reason: "too_large" };
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  return readStreamCapped(request.body, maxBytes);
}

/**
 * Reads a byte stream to its end, or cancels it as soon as it passes `maxBytes` (request bodies,
 * and inflating a share link, where a small payload can expand a thousandfold). A stream error
 * is thrown as is.
 */
export async function readStreamCapped(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<CappedBytes> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, reason: "too_large" };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** The body as UTF-8 text, or "too_large". */
export async function readBodyText(request: Request, maxBytes: number): Promise<{ ok: true; text: string } | { ok: false; reason: "too_large" }> {
  const read = await readBodyBytes(request, maxBytes);
  return read.ok ? { ok: true, text: new TextDecoder().decode(read.bytes) } : read;
}

/** Sizes in messages: "256 KB", "4 MB". */
function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Reads and parses a JSON body; RouteError `too_large:<surface>` or `bad_request:<surface>`. */
export async function readJsonBody<S extends RouteSurface>(request: Request, maxBytes: number, surface: S, tooLargeMessage?: string): Promise<unknown> {
  const read = await readBodyText(request, maxBytes);
  if (!read.ok) throw new RouteError<S>(`too_large:${surface}`, tooLargeMessage ?? `The request body is larger than ${size(maxBytes)}.`);
  try {
    return JSON.parse(read.text) as unknown;
  } catch {
    throw new RouteError<S>(`bad_request:${surface}`, "The request body is not JSON.");
  }
}
