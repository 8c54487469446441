/**
 * Keeps the session across reloads (docs/page-state.md, "The page's session"): restores the
 * saved conversation, runs and code history into the page's stores once, then saves them a moment
 * after they change (so a streaming answer is saved once it settles). Subscribes to the stores
 * outside React: the page never re-renders for it. The rules of what is saved and restored are
 * lib/playground/saved-session.ts; the key-value store is injected (IndexedDB in the browser).
 */
import { Store } from "../state/store";
import { SESSION_KEY } from "../model/session-snapshot";
import { restoreSavedSession, sessionToSave } from "./saved-session";
import type { Playground } from "./playground";
import type { KeyValueStore } from "../storage/key-value";

export interface SessionKeeperState {
  /** True once the saved session (if any) was restored; saving starts then. */
  restored: boolean;
  /** Runs left out of the last save to stay under the size cap. */
  droppedRuns: number;
}

export class SessionKeeper extends Store<SessionKeeperState> {
  readonly #page: Pick<Playground, "chat" | "workbench" | "editor">;
  readonly #kv: KeyValueStore | undefined;
  readonly #delayMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #unsubscribe: Array<() => void> = [];

  constructor(page: Pick<Playground, "chat" | "workbench" | "editor">, kv: KeyValueStore | undefined, options: { saveDelayMs?: number } = {}) {
    super({ restored: false, droppedRuns: 0 });
    this.#page = page;
    this.#kv = kv;
    this.#delayMs = options.saveDelayMs ?? 800;
  }

  /** Restores the saved session (the conversation only when `restoreConversation`: a shared link brings its own), then follows the stores. */
  async start(options: { restoreConversation: boolean }): Promise<void> {
    const { chat, workbench, editor } = this.#page;
    const saved = await this.#kv?.get(SESSION_KEY).catch(() => undefined);
    restoreSavedSession(
      saved,
      {
        restoreConversation: (messages) => void chat.restore(messages),
        addRun: (record, source) => workbench.history.add(record, source),
        restoreCodeHistory: (entries) => editor.restoreHistory(entries),
      },
      options,
    );
    this.set({ ...this.snapshot(), restored: true });
    if (!this.#kv) return;
    // Only what is saved counts: the conversation's messages, the runs, the code history.
    let last = this.#parts();
    const changed = () => {
      const next = this.#parts();
      if (next.messages === last.messages && next.runs === last.runs && next.codeHistory === last.codeHistory) return;
      last = next;
      this.#schedule();
    };
    this.#unsubscribe.push(chat.subscribe(changed), workbench.history.subscribe(changed), editor.subscribe(changed));
  }

  /** Empties the conversation, the runs and the code history, here and in storage. */
  async clear(): Promise<void> {
    const { chat, workbench, editor } = this.#page;
    await chat.clear();
    workbench.history.clear();
    editor.restoreHistory([]);
    clearTimeout(this.#timer);
    await this.#kv?.del(SESSION_KEY).catch(() => undefined);
  }

  /** Writes a pending save now. */
  async flush(): Promise<void> {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#save();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
  }

  #parts() {
    return { messages: this.#page.chat.snapshot().messages, runs: this.#page.workbench.history.snapshot(), codeHistory: this.#page.editor.snapshot().history };
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#save();
    }, this.#delayMs);
  }

  async #save(): Promise<void> {
    const { snapshot, droppedRuns } = sessionToSave(this.#parts());
    if (droppedRuns !== this.snapshot().droppedRuns) this.set({ ...this.snapshot(), droppedRuns });
    // A full or blocked store costs the saved session, never the page.
    await this.#kv?.set(SESSION_KEY, snapshot).catch(() => undefined);
  }
}
