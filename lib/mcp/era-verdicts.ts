/**
 * The protocol era each server URL was found to speak (docs/mcp-client.md, "Protocol eras"),
 * so a later connect to a 2025-11-25 server skips the `server/discover` probe it would fail. The
 * page keeps them in localStorage, so they outlive a reload; Node hosts keep them for the
 * process. A verdict is a hint, never a rule: a connect that fails on a remembered "legacy" forgets
 * it and negotiates again (the server may have moved to 2026-07-28). Pure over a Storage.
 */
import type { TextStorage } from "../storage/key-value";

export type EraVerdict = "modern" | "legacy";

export interface EraVerdicts {
  get(url: string): EraVerdict | undefined;
  set(url: string, era: EraVerdict): void;
  forget(url: string): void;
}

/** The most URLs kept; the oldest verdicts go first. */
export const MAX_VERDICTS = 200;

/** Verdicts in memory, for one process or page. */
export function memoryVerdicts(): EraVerdicts {
  const map = new Map<string, EraVerdict>();
  return {
    get: (url) => map.get(url),
    set(url, era) {
      map.delete(url);
      map.set(url, era);
      if (map.size > MAX_VERDICTS) map.delete(map.keys().next().value ?? "");
    },
    forget: (url) => void map.delete(url),
  };
}

/** Verdicts kept in `storage` under `key` (JSON), surviving a reload; a corrupt entry is ignored. */
export function storedVerdicts(storage: TextStorage, key = "code-mode-playground.era-verdicts"): EraVerdicts {
  const read = (): Array<[string, EraVerdict]> => {
    try {
      const parsed: unknown = JSON.parse(storage.getItem(key) ?? "[]");
      if (!Array.isArray(parsed)) return [];
      return parsed.filter(
        (entry): entry is [string, EraVerdict] => Array.isArray(entry) && typeof entry[0] === "string" && (entry[1] === "modern" || entry[1] === "legacy"),
      );
    } catch {
      return [];
    }
  };
  const write = (entries: Array<[string, EraVerdict]>) => {
    try {
      storage.setItem(key, JSON.stringify(entries.slice(-MAX_VERDICTS)));
    } catch {
      // A full or blocked storage only costs a probe next time.
    }
  };
  return {
    get: (url) => read().find(([u]) => u === url)?.[1],
    set: (url, era) => write([...read().filter(([u]) => u !== url), [url, era]]),
    forget: (url) => write(read().filter(([u]) => u !== url)),
  };
}
