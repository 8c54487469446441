/**
 * A module the page loads when it first needs it, not with its first screen (docs/speed.md,
 * "The page's start"). The load starts at the first call and is shared by later ones; a failed
 * load (a chunk the server no longer has, after an upgrade) is tried again by the next call.
 */
export function loadLater<T>(load: () => Promise<T>, what: string): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw new Error(`The playground could not load ${what} (${error instanceof Error ? error.message : String(error)}). Reload the page.`, { cause: error });
    }));
}
