/**
 * Short links: store a share under its content address, and load it back. Both directions
 * decode the share with the same caps and allow-list a link gets, so the store only ever holds
 * validated, re-encoded states (never what a client happened to send) and a damaged file is
 * reported, not served. Failures are values carrying a RouteError.
 */
import "server-only";
import { RouteError } from "../../http/route-error";
import { decodeShareState } from "../decode";
import { canonicalShareJson, encodeShareState } from "../encode";
import { SHARE_VERSION } from "../schema";
import { isShareId, shareIdFor } from "../share-id";
import { SHARE_CAPS } from "../caps";
import type { SharePutOutcome, ShareStore } from "./store";

/** A stored share's id and whether this call created it, or the error to answer with. */
export type SaveShortLinkResult = { ok: true; id: string; created: boolean } | { ok: false; error: RouteError };

/** A stored share's link text, or the error to answer with. */
export type LoadShortLinkResult = { ok: true; share: string } | { ok: false; error: RouteError };

// The cause (a path, an errno) goes to the server's log, not into the answer.
function unavailable(cause: unknown): RouteError {
  console.error("share store:", cause);
  return new RouteError("unavailable:share", "The short-link store is unavailable right now. Share as a link or a file instead.");
}

/** Validates link text, re-encodes it from the validated state and stores it under its id. */
export async function saveShortLink(store: ShareStore, share: string): Promise<SaveShortLinkResult> {
  const decoded = await decodeShareState(share);
  if (!decoded.ok) {
    const code = decoded.error.code === "too_large" ? "too_large:share" : "bad_request:share";
    return { ok: false, error: new RouteError(code, decoded.error.message) };
  }
  const canonical = canonicalShareJson(decoded.state);
  const id = await shareIdFor(canonical);
  const text = await encodeShareState(decoded.state);
  if (text.length > SHARE_CAPS.snapshotChars) {
    return { ok: false, error: new RouteError("too_large:share", `The share is larger than ${SHARE_CAPS.snapshotChars} characters.`) };
  }
  let outcome: SharePutOutcome;
  try {
    outcome = await store.put(id, text);
  } catch (error) {
    return { ok: false, error: unavailable(error) };
  }
  if (outcome === "full") {
    return { ok: false, error: new RouteError("full:share", "The short-link store is full. Share as a link or a file instead.") };
  }
  return { ok: true, id, created: outcome === "created" };
}

/** Loads a stored share, checking that it still decodes and (same version) still matches its id. */
export async function loadShortLink(store: ShareStore, id: string): Promise<LoadShortLinkResult> {
  if (!isShareId(id)) return { ok: false, error: new RouteError("bad_request:share", "That is not a share id.") };
  let share: string | undefined;
  try {
    share = await store.get(id);
  } catch (error) {
    return { ok: false, error: unavailable(error) };
  }
  if (share === undefined) return { ok: false, error: new RouteError("not_found:share", "No share is stored under this link.") };
  const damaged = { ok: false, error: new RouteError("corrupt:share", "The stored share is damaged and cannot be opened.") } as const;
  const decoded = await decodeShareState(share);
  if (!decoded.ok) return damaged;
  // A snapshot stored by an older format migrates on open, so its id was computed on other text.
  if (share.startsWith(`v${SHARE_VERSION}.`) && (await shareIdFor(canonicalShareJson(decoded.state))) !== id) return damaged;
  return { ok: true, share };
}
