/**
 * The share layer's two error shapes. Decoding fails as a value (`ShareDecodeError`), since a
 * bad link is an expected outcome the banner shows. The short-link routes fail with
 * `ShareRouteError`, whose stable `type:share` code and `toResponse()` keep each route's error
 * path one line long; its JSON body matches McpRouteError's: `{ error: { code, message } }`.
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

const STATUS = {
  bad_request: 400,
  not_found: 404,
  too_large: 413,
  rate_limited: 429,
  /** A stored snapshot that no longer decodes: the server's problem, not the client's. */
  corrupt: 500,
  /** The store cannot be read or written (permissions, disk). */
  unavailable: 503,
  /** The store reached its total size cap. */
  full: 507,
} as const;

/** Stable error codes of the share routes. */
export type ShareRouteErrorCode = `${keyof typeof STATUS}:share`;

/** A share route failure with a stable code and a message for a person. */
export class ShareRouteError extends Error {
  override readonly name = "ShareRouteError";

  constructor(
    readonly code: ShareRouteErrorCode,
    message: string,
    /** Seconds until a rate-limited client may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** HTTP status derived from the code's type. */
  get status(): number {
    return STATUS[this.code.slice(0, -":share".length) as keyof typeof STATUS];
  }

  /** The JSON error response (with Retry-After when rate limited). */
  toResponse(): Response {
    const headers = new Headers({ "content-type": "application/json", "cache-control": "no-store" });
    if (this.retryAfterSeconds !== undefined) headers.set("retry-after", String(this.retryAfterSeconds));
    return new Response(JSON.stringify({ error: { code: this.code, message: this.message } }), { status: this.status, headers });
  }
}
