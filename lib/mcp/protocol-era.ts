/**
 * MCP's two protocol eras (docs/mcp-client.md, "Protocol eras"): 2026-07-28 ("modern":
 * stateless, every request carries its version and capabilities, `server/discover`, input asked
 * for through multi-round-trip results) and 2025-11-25 ("legacy": a session opened by
 * `initialize`, the server sending requests back on a stream).
 */

/** Which era a connection speaks: negotiated ("auto"), or forced one way. */
export type ProtocolEraChoice = "auto" | "modern" | "legacy";

/** The protocol revision of each era. */
export const ERA_REVISION = { modern: "2026-07-28", legacy: "2025-11-25" } as const;

/** The era a negotiated protocol version belongs to. */
export function eraOfVersion(version: string): "modern" | "legacy" | undefined {
  if (version === "") return undefined;
  return version >= ERA_REVISION.modern ? "modern" : "legacy";
}

/** A person's era setting for a server, in plain words (the form's choices, the card's note). */
export const ERA_CHOICE_LABEL: Readonly<Record<ProtocolEraChoice, string>> = {
  auto: "Negotiate: 2026-07-28 first, then 2025-11-25",
  modern: "2026-07-28 only (stateless)",
  legacy: "2025-11-25 only (initialize, session)",
};

/** A forced era, as the card's short note says it. */
export const FORCED_ERA_NOTE: Readonly<Record<Exclude<ProtocolEraChoice, "auto">, string>> = {
  modern: `${ERA_REVISION.modern} forced`,
  legacy: `${ERA_REVISION.legacy} forced`,
};

/**
 * How the UI marks a feature 2026-07-28 deprecated (logging, roots, sampling): still served to
 * servers that use it, labelled so a person writing a server today knows not to lean on it.
 */
export const LEGACY_FEATURE = {
  label: "2025-era",
  title: `Deprecated in MCP ${ERA_REVISION.modern}; kept for servers that still use it.`,
} as const;

/** The version and what it implies, in plain words, as a server's card shows it. */
export function describeProtocol(version: string): string {
  const era = eraOfVersion(version);
  if (era === "modern") return `${version} · stateless`;
  if (era === "legacy") return `${version} · session`;
  return "protocol unknown";
}

/**
 * A server's refusal of the version it was asked to speak: the JSON-RPC error -32022
 * "Unsupported protocol version" with the versions it supports, as the body of its HTTP answer.
 */
export function versionRefusal(body: string | undefined): { supported: string[] } | undefined {
  if (!body) return undefined;
  try {
    return refusalOf((JSON.parse(body) as { error?: unknown }).error);
  } catch {
    return undefined;
  }
}

/**
 * The same refusal as a JSON-RPC error the client threw (`code`, `data`): how it arrives when
 * the server's answer came on a stream rather than as the HTTP body (a local server behind the
 * stdio bridge).
 */
export function refusalOf(error: unknown): { supported: string[] } | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, data } = error as { code?: unknown; data?: { supported?: unknown } };
  if (code !== -32022) return undefined;
  const supported = data?.supported;
  return { supported: Array.isArray(supported) ? supported.filter((v): v is string => typeof v === "string").slice(0, 10) : [] };
}
