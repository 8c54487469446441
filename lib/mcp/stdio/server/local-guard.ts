/**
 * Decides whether a request may reach the stdio bridge, which runs commands on this machine.
 * The decision is pure (`checkLocalRequest`); the facts it needs about the process (the
 * mode, the token, the opt-out) come in through `LocalGuardContext`.
 *
 * The first wall is the **local token**, and it is only ever shown in the terminal that
 * started the app: scripts/serve.mjs (what `npm start` runs) makes 32 random bytes, hands them
 * to this process as CMP_LOCAL_TOKEN and prints the playground's URL with the token in its
 * fragment (`#cmp-token=…`), which browsers never send to a server, so it reaches no log. The
 * page keeps it and sends it in the `x-cmp-local-token` header. No endpoint hands it out:
 * every header a browser would send (Origin, Sec-Fetch-Site, Host) can be forged by a plain
 * HTTP client behind a same-host relay (nginx, `ssh -R`, socat), which is how the MCP
 * Inspector's bridge was exploited (CVE-2025-49596). Without CMP_LOCAL_TOKEN the bridge is off.
 *
 * The other walls, each of which alone would not be enough:
 * - Other machines: the bridge exists only in local mode (lib/http/server/deployment.ts: every socket
 *   at the request's port is loopback, CMP_MODE is not "hosted"), and forwarded-for headers
 *   naming a non-loopback client are refused.
 * - DNS rebinding: only the loopback Host names localhost, 127.0.0.1 and [::1] pass.
 * - Foreign pages in the person's browser: the Origin, when sent, must be the app itself, and
 *   no response carries CORS headers.
 */
import "server-only";
import { secretsEqual } from "../../../secrets/node/equal";
import { appMode, forwardedForOthers } from "../../../http/server/deployment";
import type { Env } from "../../../http/server/deployment";
import { processListenAddresses } from "../../../http/server/listen-addresses";
import type { ListenAddresses } from "../../../http/server/listen-addresses";
import { LOCAL_TOKEN_FRAGMENT, LOCAL_TOKEN_HEADER } from "../stdio-protocol";

/** Set to 1 (or true) to turn the stdio bridge off even on loopback. */
export const DISABLE_STDIO_ENV = "CMP_DISABLE_STDIO";

/** The environment variable scripts/serve.mjs hands the token in. */
export const LOCAL_TOKEN_ENV = "CMP_LOCAL_TOKEN";

/** Outcome of a guard check; `reason` is written for a person. */
export type LocalGuardResult = { ok: true } | { ok: false; reason: string };

/** What the guard needs to know about this process. */
export interface LocalGuardContext {
  disabled: boolean;
  /** The token bridge requests must carry; undefined when the app was not started with one. */
  token: string | undefined;
  env: Env;
  /** Addresses this process listens on at a port (empty when none; undefined when unknowable). */
  listenAddresses: ListenAddresses;
}

// The exact Host values a browser sends for a loopback app; no other 127.x aliases, no userinfo.
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i;

/** How a person gets the token, for refusals. */
export const HOW_TO_GET_TOKEN = `Open the playground with the link that \`npm start\` printed in its terminal (it ends in #${LOCAL_TOKEN_FRAGMENT}=…); the page keeps the token from then on.`;

function refuse(reason: string): LocalGuardResult {
  return { ok: false, reason };
}

/** Decides whether `request` may use the stdio bridge. Pure. */
export function checkLocalRequest(request: Request, context: LocalGuardContext): LocalGuardResult {
  if (context.disabled) return refuse(`The stdio bridge is turned off (${DISABLE_STDIO_ENV}=1)`);
  const headers = request.headers;

  const host = (headers.get("host") ?? "").toLowerCase();
  if (!LOOPBACK_HOST.test(host)) {
    return refuse(`The stdio bridge answers only on localhost, 127.0.0.1 or [::1], not on host "${host.slice(0, 100)}"`);
  }
  const remote = forwardedForOthers(headers);
  if (remote !== undefined) return refuse(`The request was forwarded for a non-loopback client (${remote.slice(0, 60)})`);
  if (appMode(request, context.env, context.listenAddresses) === "hosted") {
    return refuse(
      "The stdio bridge runs only when the playground runs on your own machine (listening on 127.0.0.1, not CMP_MODE=hosted); start it with npm start to use local stdio servers",
    );
  }
  const origin = headers.get("origin");
  if (origin !== null && origin !== `http://${host}` && origin !== `https://${host}`) {
    return refuse(`Origin ${origin.slice(0, 100)} is not this app (${host})`);
  }
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return refuse(`Only same-origin requests may use the stdio bridge (Sec-Fetch-Site: ${site.slice(0, 30)})`);

  if (context.token === undefined) return refuse(`The stdio bridge needs the local token, which this server was not started with. ${HOW_TO_GET_TOKEN}`);
  const token = headers.get(LOCAL_TOKEN_HEADER);
  if (token === null || token === "") return refuse(`This page has no local token. ${HOW_TO_GET_TOKEN}`);
  if (!secretsEqual(token, context.token)) return refuse(`This page's local token is not this server's (was the app restarted?). ${HOW_TO_GET_TOKEN}`);
  return { ok: true };
}

/** The token this process was started with (at least 32 characters), or undefined. */
export function localTokenFromEnv(env: Env): string | undefined {
  const token = env[LOCAL_TOKEN_ENV]?.trim() ?? "";
  return token.length >= 32 ? token : undefined;
}

/** The guard context for this process, reading `env` at call time. */
export function localGuardContext(env: Env = process.env): LocalGuardContext {
  const flag = env[DISABLE_STDIO_ENV];
  return { disabled: flag === "1" || flag === "true", token: localTokenFromEnv(env), env, listenAddresses: processListenAddresses };
}
