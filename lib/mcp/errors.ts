/**
 * The error family for the MCP route handlers (demo servers and proxy). Codes are stable
 * `type:surface` strings; `toResponse()` keeps every route's error path one line long.
 * The JSON body is `{ error: { code, message, cause? } }`.
 */

/** Error types and the HTTP status each maps to. */
const STATUS = {
  bad_request: 400,
  refused: 403,
  not_found: 404,
  method_not_allowed: 405,
  too_large: 413,
  unreachable: 502,
} as const;

/** Stable error codes, `type:surface`. */
export type McpRouteErrorCode = `${keyof typeof STATUS}:${"demo_mcp" | "proxy"}`;

/** Why an upstream was unreachable, for `unreachable:proxy`. */
export type UnreachableCause = "dns" | "refused" | "reset" | "tls" | "timeout" | "redirect" | "network";

/** A route failure with a stable code, a message for a person and an optional machine cause. */
export class McpRouteError extends Error {
  override readonly name = "McpRouteError";

  constructor(
    readonly code: McpRouteErrorCode,
    message: string,
    readonly causeKind?: UnreachableCause,
  ) {
    super(message);
  }

  /** HTTP status derived from the code's type. */
  get status(): number {
    const type = this.code.split(":")[0] as keyof typeof STATUS;
    return STATUS[type];
  }

  /** The JSON error response, with optional extra headers (CORS, Allow). */
  toResponse(headers?: HeadersInit): Response {
    const body = { error: { code: this.code, message: this.message, ...(this.causeKind ? { cause: this.causeKind } : {}) } };
    const out = new Headers(headers);
    out.set("content-type", "application/json");
    return new Response(JSON.stringify(body), { status: this.status, headers: out });
  }
}
