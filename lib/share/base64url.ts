/**
 * base64url (RFC 4648 §5, no padding) for bytes, on btoa/atob so the same code runs in browsers
 * and Node without Buffer. Hand-written because it is a dozen lines; Uint8Array.fromBase64 is
 * not yet in every browser this app supports. Pure.
 */

const ALPHABET = /^[A-Za-z0-9_-]*$/;
// String.fromCharCode takes its bytes as arguments; keep each call well under engine limits.
const CHUNK = 0x8000;

/** Bytes → base64url text without padding. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** base64url text → bytes; undefined when the text is not base64url. */
export function base64UrlToBytes(text: string): Uint8Array | undefined {
  // A length of 1 mod 4 cannot come from any byte string.
  if (!ALPHABET.test(text) || text.length % 4 === 1) return undefined;
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
