/**
 * Who may spend the server's own model keys. In local mode, the person at this machine. In
 * hosted mode (lib/http/server/deployment.ts) only callers who present the operator's access secret
 * (CMP_ACCESS_SECRET, at least 16 characters); without one configured, nobody: callers bring
 * their own keys. A hosted playground must never be a free proxy to its operator's quota.
 */
import "server-only";
import { secretsEqual } from "../../secrets/node/equal";
import { appMode } from "./deployment";
import type { Env } from "./deployment";

/** How the server's keys are reachable: "open" (local), "secret" (hosted, with the secret), "off" (hosted, never). */
export type ServerKeyAccess = "open" | "secret" | "off";

function configuredSecret(env: Env): string | undefined {
  const secret = env.CMP_ACCESS_SECRET?.trim() ?? "";
  return secret.length >= 16 ? secret : undefined;
}

/** How this request could reach the server's keys. */
export function serverKeyAccess(request: Request, env: Env): ServerKeyAccess {
  if (appMode(request, env) === "local") return "open";
  return configuredSecret(env) === undefined ? "off" : "secret";
}

/** True when this request may use the server's keys, given the access secret it presented (if any). */
export function serverKeysAllowed(request: Request, env: Env, presented: string | undefined): boolean {
  const access = serverKeyAccess(request, env);
  if (access !== "secret") return access === "open";
  return secretsEqual(presented ?? "", configuredSecret(env) ?? "");
}
