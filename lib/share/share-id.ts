/**
 * Content-addressed ids for stored shares: the first 128 bits of SHA-256 over the canonical
 * JSON of the validated state, in base64url (22 characters). The same state always gets the
 * same id whatever compressor encoded it, and 128 bits keep ids unguessable, so knowing one
 * short link reveals nothing about others.
 */
import { bytesToBase64Url } from "./base64url";

/** What a share id looks like; anything else (dots, slashes, other lengths) is refused before any lookup. */
export const SHARE_ID = /^[A-Za-z0-9_-]{22}$/;

/** True when `text` is a well-formed share id (the only check between a URL and a file path). */
export function isShareId(text: unknown): text is string {
  return typeof text === "string" && SHARE_ID.test(text);
}

/** The id of a share from its canonical JSON text. */
export async function shareIdFor(canonicalJson: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalJson));
  return bytesToBase64Url(new Uint8Array(digest).subarray(0, 16));
}
