/**
 * Where a share travels in a URL. A link carries it in the fragment (`/#share=v1.…`), which
 * browsers never send to a server; a short link `/s/<id>` redirects to `/#share-id=<id>` and
 * the page fetches the stored snapshot. The location is passed in (like the TypeScript
 * playground's `getInitialCode(fallback, location)`), so all of this is testable without a
 * browser. Pure.
 */
import { isShareId } from "../share-id";

/** Fragment key of an inline share. */
export const SHARE_PARAM = "share";
/** Fragment key of a stored share's id. */
export const SHARE_ID_PARAM = "share-id";

/** What the current location asks the page to open. */
export type ShareLocation = { kind: "none" } | { kind: "link"; encoded: string } | { kind: "stored"; id: string } | { kind: "invalid"; message: string };

function params(hash: string): URLSearchParams {
  return new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
}

/** Reads the share (if any) from a location's fragment. */
export function readShareFromLocation(location: Pick<Location, "hash">): ShareLocation {
  const found = params(location.hash ?? "");
  const encoded = found.get(SHARE_PARAM);
  if (encoded !== null && encoded !== "") return { kind: "link", encoded };
  const id = found.get(SHARE_ID_PARAM);
  if (id === null) return { kind: "none" };
  return isShareId(id) ? { kind: "stored", id } : { kind: "invalid", message: "This short link's id is malformed." };
}

/** The fragment with the share keys removed (what the address bar keeps once a share is dismissed). */
export function hashWithoutShare(hash: string): string {
  const rest = params(hash);
  rest.delete(SHARE_PARAM);
  rest.delete(SHARE_ID_PARAM);
  const text = rest.toString();
  return text === "" ? "" : `#${text}`;
}

/** A full link carrying the encoded share in its fragment; `base` is the app's origin (and base path). */
export function shareLinkUrl(base: string, encoded: string): string {
  return `${base.replace(/\/+$/, "")}/#${SHARE_PARAM}=${encoded}`;
}

/** A short link to a stored share. */
export function shortLinkUrl(base: string, id: string): string {
  return `${base.replace(/\/+$/, "")}/s/${id}`;
}

/** Where `/s/<id>` sends the browser: the playground, told to fetch the stored share. */
export function storedShareTarget(id: string): string {
  return `/#${SHARE_ID_PARAM}=${id}`;
}
