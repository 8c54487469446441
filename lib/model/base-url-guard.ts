/**
 * Which base URLs the server may send an OpenAI-compatible request to. The browser picks the
 * URL, so without a guard a hosted playground would let anyone make it call its own network
 * (SSRF). The address rules are the MCP proxy's (lib/net/proxy-guard.ts); private addresses
 * (Ollama on localhost, a LAN vLLM) pass only when the app itself runs on loopback, i.e. on
 * the person's own machine, or when MODEL_BASE_URL_ALLOW lists them.
 *
 * This checks the URL's text, before anything is sent; the provider then talks through
 * lib/net/server/guarded-fetch.ts, which checks the resolved address at connect time and every
 * redirect hop with the same allow-list (`baseUrlAllowList`).
 */
import { checkProxyTarget } from "../net/proxy-guard";
import { PRIVATE_TARGETS } from "../net/private-targets";

/** Guard settings. */
export interface BaseUrlPolicy {
  /** The app listens on loopback only, so private targets are the person's own. */
  allowPrivate: boolean;
  /** Extra allowed hosts, suffixes ("*.corp"), addresses and CIDR ranges (MODEL_BASE_URL_ALLOW). */
  allowList?: readonly string[];
}

/** Reads MODEL_BASE_URL_ALLOW (comma-separated). */
export function baseUrlAllowListFromEnv(env: Record<string, string | undefined>): string[] {
  return (env.MODEL_BASE_URL_ALLOW ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** The guard's allow-list for a policy: the configured entries, plus every private range when local. */
export function baseUrlAllowList(policy: BaseUrlPolicy): string[] {
  return [...(policy.allowList ?? []), ...(policy.allowPrivate ? PRIVATE_TARGETS : [])];
}

/** Checks a base URL; the reason is written for a person. */
export function checkBaseUrl(url: string, policy: BaseUrlPolicy): { ok: true } | { ok: false; reason: string } {
  const verdict = checkProxyTarget(url, { allowList: baseUrlAllowList(policy) });
  if (verdict.ok) return verdict;
  const reason = verdict.reason.replace("add it to the proxy allow-list to reach it", "a hosted playground does not call private addresses");
  return {
    ok: false,
    reason: `The base URL is refused: ${reason}. Run the app on your machine (npm start listens on 127.0.0.1) or list the host in MODEL_BASE_URL_ALLOW.`,
  };
}
