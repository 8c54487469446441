/**
 * deflate-raw through the platform's CompressionStream / DecompressionStream (browsers and
 * Node 22), so no compression dependency ships to the client. Inflating stops as soon as the
 * output passes a cap: a small payload of zeros can inflate a thousandfold.
 */
import { readStreamCapped } from "../http/read-body";

/** Why inflating failed: the data is not deflate (or is cut short), or it inflates past the cap. */
export type InflateResult = { ok: true; bytes: Uint8Array } | { ok: false; reason: "corrupt" | "too_large" };

// Typed as BufferSource because that is what (De)CompressionStream's writable side declares.
function streamOf(bytes: Uint8Array): ReadableStream<BufferSource> {
  // A copy backed by a plain ArrayBuffer, which is what BlobPart accepts.
  return new Blob([bytes.slice()]).stream();
}

/** Compresses bytes with deflate-raw. */
export async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const compressed = streamOf(bytes).pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}

/** Inflates deflate-raw bytes, giving up once the output would exceed `maxBytes`. */
export async function inflateRaw(bytes: Uint8Array, maxBytes: number): Promise<InflateResult> {
  try {
    return await readStreamCapped(streamOf(bytes).pipeThrough(new DecompressionStream("deflate-raw")), maxBytes);
  } catch {
    // Truncated input ends in Z_BUF_ERROR, garbage in Z_DATA_ERROR: both mean a damaged link.
    return { ok: false, reason: "corrupt" };
  }
}
