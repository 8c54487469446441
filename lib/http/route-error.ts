/**
 * The one error type of every route handler. Codes are stable `kind:surface` strings
 * (`refused:proxy`, `too_large:chat`); the kind alone decides the HTTP status, from the one
 * table below. The JSON body is always `{ error: { code, message, cause? } }`, so the browser
 * reads every route's failures the same way. Messages are written for a person and never
 * quote request data that may hold a secret.
 */

/** Error kinds and the status each maps to. */
export const ROUTE_ERROR_STATUS = {
  bad_request: 400,
  missing_key: 400,
  unauthorized: 401,
  refused: 403,
  not_found: 404,
  method_not_allowed: 405,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  too_many: 429,
  internal: 500,
  /** A stored snapshot that no longer decodes: the server's problem, not the client's. */
  corrupt: 500,
  unreachable: 502,
  start_failed: 502,
  exited: 502,
  /** A store that cannot be read or written (permissions, disk, a lost Redis). */
  unavailable: 503,
  /** A store at its total size cap. */
  full: 507,
} as const;

/** One error kind. */
export type RouteErrorKind = keyof typeof ROUTE_ERROR_STATUS;

/** The surfaces (route families) that answer with a RouteError. */
export type RouteSurface = "chat" | "proxy" | "demo_mcp" | "stdio" | "share" | "http" | "codemode" | "channel";

/** A stable code: `kind:surface`. */
export type RouteErrorCode<S extends RouteSurface = RouteSurface> = `${RouteErrorKind}:${S}`;

/** Optional facts carried by an error. */
export interface RouteErrorDetails {
  /** A machine-readable cause (`dns`, `refused`, `command_not_found`…), sent as `error.cause`. */
  cause?: string;
  /** Seconds until a rate-limited client may try again (Retry-After). */
  retryAfterSeconds?: number;
  /** Extra response headers (Allow, CORS). */
  headers?: HeadersInit;
}

/** A route failure with a stable code, a message for a person and optional details. */
export class RouteError<S extends RouteSurface = RouteSurface> extends Error {
  override readonly name: string = "RouteError";
  readonly causeKind: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly #headers: HeadersInit | undefined;

  constructor(
    readonly code: RouteErrorCode<S>,
    message: string,
    details: RouteErrorDetails = {},
  ) {
    super(message);
    this.causeKind = details.cause;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.#headers = details.headers;
  }

  /** The kind part of the code. */
  get kind(): RouteErrorKind {
    return this.code.slice(0, this.code.indexOf(":")) as RouteErrorKind;
  }

  /** HTTP status derived from the kind. */
  get status(): number {
    return ROUTE_ERROR_STATUS[this.kind];
  }

  /** The JSON error response; never cached, since it may describe this server or its processes. */
  toResponse(headers?: HeadersInit): Response {
    const body = { error: { code: this.code, message: this.message, ...(this.causeKind ? { cause: this.causeKind } : {}) } };
    const out = new Headers(this.#headers);
    for (const [name, value] of new Headers(headers)) out.set(name, value);
    out.set("content-type", "application/json");
    out.set("cache-control", "no-store");
    if (this.retryAfterSeconds !== undefined) out.set("retry-after", String(this.retryAfterSeconds));
    return new Response(JSON.stringify(body), { status: this.status, headers: out });
  }
}

/** True for any RouteError, whichever surface. */
export function isRouteError(error: unknown): error is RouteError {
  return error instanceof RouteError;
}

/** A RouteError as it arrives on the other side of the wire. */
export interface RouteErrorBody {
  code: string;
  message: string;
  cause?: string;
}

/** The RouteError a JSON body (as text or parsed) carries, or undefined when it carries none. */
export function parseRouteErrorBody(body: unknown): RouteErrorBody | undefined {
  let value = body;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  if (typeof value !== "object" || value === null || !("error" in value)) return undefined;
  const error = value.error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message, cause } = error as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string") return undefined;
  return { code, message, ...(typeof cause === "string" ? { cause } : {}) };
}

/** Reads a failed response's RouteError (the browser's one reader); undefined when its body is not one. The body is consumed. */
export async function readRouteError(response: Response): Promise<RouteErrorBody | undefined> {
  return parseRouteErrorBody(await response.text().catch(() => ""));
}
