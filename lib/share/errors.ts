/**
 * The share layer's two error shapes. Decoding fails as a value (`ShareDecodeError`), since a
 * bad link is an expected outcome the banner shows. The short-link routes fail with
 * the one RouteError (lib/http/route-error.ts), codes `kind:share`.
 */

/** Why a link or file could not be opened. */
export type ShareDecodeErrorCode =
  /** Not a share link or file at all (wrong prefix, not base64url, not JSON). */
  | "format"
  /** Made by a newer app, or a version no migration leads from. */
  | "version"
  /** Damaged or cut short: does not decompress or decode. */
  | "corrupt"
  /** Larger than the caps allow, before or after decompression. */
  | "too_large"
  /** Decodes, but the content breaks the schema. */
  | "invalid";

/** A decode failure: a stable code and a sentence for the person who opened the link. */
export interface ShareDecodeError {
  code: ShareDecodeErrorCode;
  message: string;
}
