/**
 * Facts about MCP route failures beyond their code. The routes fail with the one RouteError
 * (lib/http/route-error.ts); `cause` names why an upstream was unreachable.
 */

/** Why an upstream was unreachable, for `unreachable:proxy`. */
export type UnreachableCause = "dns" | "refused" | "reset" | "tls" | "timeout" | "redirect" | "network";
