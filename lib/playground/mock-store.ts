/** The person's mock tools for this session, and the second sandbox worker their scripts run in. */
import { Store } from "../state/store";
import { RunController, type WorkerLike } from "../sandbox/run-controller";
import type { MockTable, ScriptRunner, ToolMock } from "../host-calls/mocks";
import { define } from "../host-calls/host-table";

export class MockStore extends Store<MockTable> {
  #controller: RunController | undefined;
  readonly #createWorker: () => WorkerLike;

  constructor(createWorker: () => WorkerLike) {
    super({});
    this.#createWorker = createWorker;
  }

  /** Sets (or, with undefined, removes) the mock of namespace.fn. Own properties only: "__proto__" is a name like any other. */
  setMock(namespace: string, fn: string, mock: ToolMock | undefined): void {
    const current = this.snapshot();
    const table = { ...(Object.hasOwn(current, namespace) ? current[namespace] : {}) };
    if (mock) define(table, fn, mock);
    else delete table[fn];
    const next = { ...current };
    if (Object.keys(table).length > 0) define(next, namespace, table);
    else delete next[namespace];
    this.set(next);
  }

  clear(): void {
    this.set({});
  }

  /** Runs a script mock in a second worker (the main one is busy with the run that called it), started on first use. */
  readonly runScript: ScriptRunner = (request, signal) => {
    this.#controller ??= new RunController({ createWorker: this.#createWorker });
    const handle = this.#controller.run(request, {});
    signal.addEventListener("abort", handle.cancel, { once: true });
    return handle.result.finally(() => signal.removeEventListener("abort", handle.cancel));
  };

  dispose(): void {
    this.#controller?.dispose();
    this.#controller = undefined;
  }
}
