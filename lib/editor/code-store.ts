/** Where the editor's code is kept between reloads. Storage is injected so tests need no browser. */
import type { TextStorage } from "../storage/key-value";
export interface CodeStore {
  load(): string | undefined;
  save(code: string): void;
  /** The editor's inputs (JSON text), kept beside the code. */
  loadData?(): string | undefined;
  saveData?(text: string): void;
}

const KEY = "cmp:editor-code:v1";
const DATA_KEY = "cmp:editor-data:v1";
/** Larger scripts are not persisted: localStorage quotas are small and shared with the rest of the app. */
const MAX_PERSISTED_CHARS = 512 * 1024;

/** A CodeStore over a Web Storage object; every failure (quota, privacy mode) degrades to "not saved". */
export function createCodeStore(storage: TextStorage | undefined): CodeStore {
  const load = (key: string): string | undefined => {
    try {
      const value = storage?.getItem(key);
      return typeof value === "string" ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const save = (key: string, text: string): void => {
    if (text.length > MAX_PERSISTED_CHARS) return;
    try {
      storage?.setItem(key, text);
    } catch {
      // Quota exceeded or storage disabled: the text stays in memory for this session.
    }
  };
  return {
    load: () => load(KEY),
    save: (code) => save(KEY, code),
    loadData: () => load(DATA_KEY),
    saveData: (text) => save(DATA_KEY, text),
  };
}
