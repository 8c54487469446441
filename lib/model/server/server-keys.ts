/**
 * The server's provider keys as the environment holds them: which providers have one, the
 * environment without them, and GET /api/chat/providers, which says so to the page. Apart from the provider registry (provider-registry.ts) so that GET
 * /api/chat/providers, which every page asks at its start, loads no model provider.
 */
import "server-only";
import { serverKeyAccess } from "../../http/server/access";
import { PROVIDERS, providerInfo, type ProviderId, type ServerKeyStatus } from "../providers";

/** The server's environment, as the model routes read it. */
export type Env = Record<string, string | undefined>;

/** The server's key for a provider, if any. */
export function serverKey(provider: ProviderId, env: Env): string | undefined {
  const name = providerInfo(provider).keyEnv;
  const value = name ? env[name]?.trim() : undefined;
  return value ? value : undefined;
}

/** The environment without any provider key: what a caller who may not spend the server's keys gets. */
export function withoutServerKeys(env: Env): Env {
  const names = new Set([...PROVIDERS.map((p) => p.keyEnv), "VERCEL_OIDC_TOKEN"]);
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.has(name)));
}

/** Which providers have a server-side key (booleans only). The demo needs none. */
export function serverKeyStatus(env: Env): ServerKeyStatus {
  const status = Object.fromEntries(PROVIDERS.map((p) => [p.id, serverKey(p.id, env) !== undefined])) as ServerKeyStatus;
  // On Vercel the gateway authenticates with the deployment's OIDC token instead of a key.
  status.gateway ||= Boolean(env.VERCEL_OIDC_TOKEN);
  status.demo = true;
  return status;
}

/**
 * Answers GET /api/chat/providers: which providers have a server-side key (booleans only), and
 * how a caller reaches them (`access`: open, behind the operator's secret, or off).
 */
export function handleProvidersRequest(request: Request, env: Env): Response {
  const access = serverKeyAccess(request, env);
  const serverKeys = serverKeyStatus(access === "off" ? withoutServerKeys(env) : env);
  return Response.json({ serverKeys, access }, { headers: { "cache-control": "no-store" } });
}
