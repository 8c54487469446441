/**
 * The editor's state (docs/page-state.md, "Page state"): the code (restored from and saved to
 * this browser), its history (the model's programs and what the editor held before them), and the
 * model's program waiting in the editor in step mode. One store; the editor panel reads it.
 */
import { Store } from "../state/store";
import type { CodeStore } from "../editor/code-store";
import { SAMPLE_CODE } from "../editor/sample-code";
import type { CodeApprovalDecision } from "../model/tool-handler";

/** One program kept so the person can bring it back into the editor. */
export interface ChatCodeEntry {
  toolCallId: string;
  code: string;
  at: number;
}

/** The model's code waiting in the editor for the person (step mode). */
export interface PendingCodeApproval {
  toolCallId: string;
  code: string;
}

export interface EditorSnapshot {
  code: string;
  /** The program's inputs as the person typed them: a JSON object whose keys become globals (lib/editor/data-globals.ts). */
  data: string;
  history: readonly ChatCodeEntry[];
  pending: PendingCodeApproval | undefined;
}

/** Most programs the history keeps. */
export const MAX_CODE_HISTORY = 50;

export interface EditorStateOptions {
  /** Where the code is kept between reloads (none: not kept). */
  codeStore?: CodeStore;
  /** Writes wait this long after the last change. */
  saveDelayMs?: number;
  now?: () => number;
}

export class EditorState extends Store<EditorSnapshot> {
  readonly #codeStore: CodeStore | undefined;
  readonly #saveDelayMs: number;
  readonly #now: () => number;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  #resolve: ((decision: CodeApprovalDecision) => void) | undefined;

  constructor(options: EditorStateOptions = {}) {
    super({ code: options.codeStore?.load() ?? SAMPLE_CODE, data: options.codeStore?.loadData?.() ?? "", history: [], pending: undefined });
    this.#codeStore = options.codeStore;
    this.#saveDelayMs = options.saveDelayMs ?? 300;
    this.#now = options.now ?? Date.now;
  }

  /** Replaces the code; it is saved shortly after the last change. */
  readonly setCode = (code: string): void => {
    if (code === this.snapshot().code) return;
    this.set({ ...this.snapshot(), code });
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.#codeStore?.save(code), this.#saveDelayMs);
  };

  /** Replaces the inputs' text; kept at once (it changes by typing in a small box, rarely). */
  readonly setData = (data: string): void => {
    if (data === this.snapshot().data) return;
    this.set({ ...this.snapshot(), data });
    this.#codeStore?.saveData?.(data);
  };

  /** Back to the sample program. */
  readonly reset = (): void => this.setCode(SAMPLE_CODE);

  /**
   * Puts a program into the editor as a history entry. What the editor held before is kept in
   * the history too (once), so new code never silently replaces the person's.
   */
  show(code: string, toolCallId: string): void {
    const { code: before, history } = this.snapshot();
    const at = this.#now();
    const keep = before.trim() !== "" && before !== code && !history.some((e) => e.code === before);
    const kept = keep ? [{ toolCallId: `before-${toolCallId}`, code: before, at: at - 1 }, ...history] : history;
    const next = [{ toolCallId, code, at }, ...kept.filter((e) => e.toolCallId !== toolCallId)].slice(0, MAX_CODE_HISTORY);
    this.set({ ...this.snapshot(), history: next });
    this.setCode(code);
  }

  /** Puts code into the editor under a label (an exploration program, a shared one). */
  putCode(code: string, label: string): void {
    this.show(code, `${label}-${this.#now()}`);
  }

  /** Replaces the history (a restored session, or a cleared one). */
  restoreHistory(entries: readonly ChatCodeEntry[]): void {
    this.set({ ...this.snapshot(), history: entries.slice(0, MAX_CODE_HISTORY) });
  }

  /**
   * Step mode: the model's program waits in the editor until the person runs it (maybe edited)
   * or skips it. A newer request replaces an older one, which is answered as skipped: never left hanging.
   */
  awaitApproval(code: string, toolCallId: string): Promise<CodeApprovalDecision> {
    this.#settle({ action: "skip", message: "Replaced by a newer call before the person decided." });
    this.show(code, toolCallId);
    this.set({ ...this.snapshot(), pending: { toolCallId, code } });
    return new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** Runs the waiting program with whatever the editor holds now; resolves with what was approved, if anything was waiting. */
  approve(): PendingCodeApproval | undefined {
    const { pending, code } = this.snapshot();
    if (!pending) return undefined;
    this.#settle({ action: "run", code });
    return { toolCallId: pending.toolCallId, code };
  }

  /** Skips the waiting program; the model reads `message`. */
  skip(message = "The person chose not to run this code."): void {
    this.#settle({ action: "skip", message });
  }

  /** Saves a pending write now (the page is going away). */
  flush(): void {
    if (this.#saveTimer === undefined) return;
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    this.#codeStore?.save(this.snapshot().code);
  }

  #settle(decision: CodeApprovalDecision): void {
    const resolve = this.#resolve;
    this.#resolve = undefined;
    if (this.snapshot().pending) this.set({ ...this.snapshot(), pending: undefined });
    resolve?.(decision);
  }
}
