/**
 * Encodes a share state as link text: `v<version>.` + base64url(deflate-raw(canonical JSON)).
 * The state is re-parsed through the allow-list first, so an object that carries extra fields
 * (TypeScript allows them on non-literal values) still encodes only what the schema names.
 * Canonical JSON (sorted keys) makes equal states give equal text.
 */
import { bytesToBase64Url } from "./base64url";
import { SHARE_CAPS } from "./caps";
import { deflateRaw } from "./compress";
import { canonicalJson } from "../text/canonical-json";
import { SHARE_VERSION, shareStateSchema } from "./schema";
import type { ShareState } from "./schema";

/** How a share of a given encoded size travels: in the link, as a short link, or not at all. */
export type ShareTransport = "link" | "short-link" | "too-large";

/** The state as the allow-list keeps it, in canonical JSON text; throws when the state is invalid. */
export function canonicalShareJson(state: ShareState): string {
  return canonicalJson(shareStateSchema.parse(state));
}

/** Encodes a state as link text (`v1.…`); throws when the state breaks the schema. */
export async function encodeShareState(state: ShareState): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalShareJson(state));
  return `v${SHARE_VERSION}.${bytesToBase64Url(await deflateRaw(bytes))}`;
}

/** Which transport an encoded share needs: links up to ~32 KB, short links up to the snapshot cap. */
export function shareTransportFor(encoded: string): ShareTransport {
  if (encoded.length <= SHARE_CAPS.linkChars) return "link";
  return encoded.length <= SHARE_CAPS.snapshotChars ? "short-link" : "too-large";
}
