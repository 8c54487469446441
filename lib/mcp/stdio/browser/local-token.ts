/**
 * The page's copy of the stdio bridge's local token. `npm start` prints the playground's URL
 * with the token in its fragment (`/#cmp-token=…`); on load the page takes it from there, keeps
 * it in this browser's storage and removes it from the address bar, so it is not shared by a
 * copied URL or left in history. Runs in the browser; location, history and storage are passed
 * in so this is testable without one.
 */
import { LOCAL_TOKEN_FRAGMENT } from "../stdio-protocol";
import type { TextStorage } from "../../../storage/key-value";

/** Storage key of the token. */
export const LOCAL_TOKEN_STORAGE_KEY = "cmp.localToken";

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

/** The fragment with the token key removed ("" when nothing else is left). */
export function hashWithoutToken(hash: string): string {
  const params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  params.delete(LOCAL_TOKEN_FRAGMENT);
  const rest = params.toString();
  return rest === "" ? "" : `#${rest}`;
}

/**
 * Takes a token from the location's fragment into storage (replacing an older one) and strips
 * it from the address bar; returns the token the page now has, if any. Storage may be blocked
 * (private modes, policies): then the token lives for this page only.
 */
export function adoptLocalToken(
  location: Pick<Location, "hash" | "pathname" | "search">,
  history: Pick<History, "replaceState" | "state">,
  storage: TextStorage | undefined,
): string | undefined {
  const params = new URLSearchParams(location.hash.startsWith("#") ? location.hash.slice(1) : location.hash);
  const fromLink = params.get(LOCAL_TOKEN_FRAGMENT);
  if (fromLink !== null) {
    history.replaceState(history.state, "", `${location.pathname}${location.search}${hashWithoutToken(location.hash)}`);
    if (TOKEN_SHAPE.test(fromLink)) {
      try {
        storage?.setItem(LOCAL_TOKEN_STORAGE_KEY, fromLink);
      } catch {
        // Blocked storage: the token still serves this page.
      }
      return fromLink;
    }
  }
  try {
    const kept = storage?.getItem(LOCAL_TOKEN_STORAGE_KEY) ?? null;
    return kept !== null && TOKEN_SHAPE.test(kept) ? kept : undefined;
  } catch {
    return undefined;
  }
}
