/**
 * This browser's localStorage, guarded once for the whole app: there is none on the server,
 * and some privacy modes and policies make merely reading `window.localStorage` throw. Callers
 * get a working Storage or, without one, a store that keeps nothing (nothing is saved, nothing
 * breaks). Browser; safe to call during server rendering.
 */

/** A Storage that remembers nothing. */
export const NO_STORAGE: Storage = {
  length: 0,
  clear: () => undefined,
  getItem: () => null,
  key: () => null,
  removeItem: () => undefined,
  setItem: () => undefined,
};

/** localStorage when it can be used, else undefined. */
export function browserStorage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** localStorage when it can be used, else a store that keeps nothing. */
export function browserStorageOrNone(): Storage {
  return browserStorage() ?? NO_STORAGE;
}
