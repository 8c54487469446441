/**
 * The one shape of every route handler: `export const POST = route({ surface: "chat" }, handler)`.
 * The wrapper runs the request guard (Host, Origin, content type; request-guard.ts) with this
 * instance's allowed hosts, calls the handler, and turns any RouteError it throws into its JSON
 * response. Anything else thrown becomes `internal:<surface>` with a generic message that gives
 * a reference (an unexpected error's text may quote request data, keys included); the
 * operator's log gets the whole error under the same reference, with the method and path (never
 * the query).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { allowedHosts } from "./deployment";
import type { Env } from "./deployment";
import { checkRequest } from "./request-guard";
import type { RouteRules } from "./request-guard";
import { RouteError } from "../route-error";
import type { RouteSurface } from "../route-error";

/** Options of `route`: the guard's rules plus the environment to read (tests pass their own). */
export interface RouteOptions<S extends RouteSurface> extends RouteRules<S> {
  env?: () => Env;
}

// The allowed hosts depend on two settings only; rebuilt when they change, not per request.
let hostsKey: string | undefined;
let hosts: ReadonlySet<string> = new Set();
function hostsFor(env: Env): ReadonlySet<string> {
  const key = `${env.CMP_LISTEN_HOST ?? ""}|${env.CMP_ALLOWED_HOSTS ?? ""}`;
  if (key !== hostsKey) {
    hosts = allowedHosts(env);
    hostsKey = key;
  }
  return hosts;
}

/** Wraps a handler with the guard and the error path. Keeps the handler's (request, context) signature. */
export function route<S extends RouteSurface, C = unknown>(
  options: RouteOptions<S>,
  handler: (request: Request, context: C) => Response | Promise<Response>,
): (request: Request, context: C) => Promise<Response> {
  const readEnv = options.env ?? (() => process.env);
  return async (request, context) => {
    try {
      const refusal = checkRequest(request, hostsFor(readEnv()), options);
      if (refusal) return refusal.toResponse();
      return await handler(request, context);
    } catch (error) {
      if (error instanceof RouteError) return error.toResponse();
      const reference = randomUUID().slice(0, 8);
      let path = "";
      try {
        path = new URL(request.url).pathname;
      } catch {
        // A request without a parseable URL: the reference is enough.
      }
      console.error(`[${reference}] ${request.method} ${path} failed:`, error);
      return new RouteError<S>(
        `internal:${options.surface}`,
        `The server could not handle this request (reference ${reference}: the app's log has the details).`,
      ).toResponse({ "x-request-id": reference });
    }
  };
}
