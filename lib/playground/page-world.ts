/**
 * The page's tool world (lib/model/tool-world.ts; docs/page-state.md, "One tool world"): the
 * model's programs show in the editor (and its history) and run in the workbench, through the same
 * host functions as the person's runs (recorded, mocked, replayed, approved the same way); classic
 * rounds, compare lanes and evals run there too, without taking over the editor. In step mode a
 * program waits in the editor; approving it covers its destructive calls unless the person asked
 * to approve each one.
 */
import type { ToolCatalog } from "../codemode/tool-catalog";
import type { LimitOverrides } from "../editor/limits-store";
import { recordCalls, type MadeToolCall } from "../host-calls/record-calls";
import { createToolWorld, type ToolWorld } from "../model/tool-world";
import type { RunResult } from "../sandbox/types";
import type { RunSource } from "../timeline/history";
import type { RunRecord } from "../timeline/run-record";
import { Store } from "../state/store";
import type { EditorState } from "./editor-state";
import type { RunOptions, Workbench } from "./workbench";

export interface PageWorldDeps {
  workbench: Workbench;
  editor: EditorState;
  /** The connected servers' catalog now. */
  catalog: () => ToolCatalog;
  /** The person's run limits: the model's code runs under the same ones as theirs. */
  limits: () => LimitOverrides;
}

/** Which run each of the chat's programs was (tool call id → run record id), so its card can show that run's MCP Apps. */
export class ChatRuns extends Store<Readonly<Record<string, string>>> {
  constructor() {
    super({});
  }

  link(toolCallId: string, record: RunRecord): void {
    this.set({ ...this.snapshot(), [toolCallId]: record.id });
  }
}

export class PageWorld {
  readonly #deps: PageWorldDeps;
  /** The chat's programs and their runs. */
  readonly chatRuns = new ChatRuns();
  #world: { catalog: ToolCatalog; world: ToolWorld } | undefined;
  /** The program the person just approved in step mode, when that approval covers its destructive calls. */
  #preApproved: string | undefined;

  constructor(deps: PageWorldDeps) {
    this.#deps = deps;
  }

  /** The world of the servers connected now (a new one when they change). */
  world(): ToolWorld {
    const catalog = this.#deps.catalog();
    if (this.#world?.catalog !== catalog) {
      const world = createToolWorld(catalog, {
        runCode: (code, toolCallId) => this.#runModelCode(code, toolCallId),
        runClassic: (code) => this.runQuiet(code, "chat"),
        awaitApproval: (code, toolCallId) => this.#deps.editor.awaitApproval(code, toolCallId),
      });
      this.#world = { catalog, world };
    }
    return this.#world.world;
  }

  /** Runs a program without taking over the editor (classic rounds, compare lanes). */
  runQuiet(code: string, source: RunSource = "chat"): Promise<RunResult> {
    return this.#deps.workbench.run(code, { source, limits: this.#deps.limits() });
  }

  /** The same, telling `sink` about every MCP call the program makes (evals); `options` decide its destructive calls. */
  runRecorded(code: string, sink: (call: MadeToolCall) => void, options: Omit<RunOptions, "limits" | "wrapHost"> = {}): Promise<RunResult> {
    return this.#deps.workbench.run(code, { ...options, limits: this.#deps.limits(), wrapHost: (host, names) => recordCalls(host, names, sink) });
  }

  /** Step mode's Run: the waiting program runs as the editor holds it; unless `askEachDestructive`, the approval covers its destructive calls. */
  approve(options: { askEachDestructive?: boolean } = {}): void {
    const pending = this.#deps.editor.snapshot().pending;
    this.#preApproved = options.askEachDestructive ? undefined : pending?.toolCallId;
    this.#deps.editor.approve();
  }

  skip(): void {
    this.#deps.editor.skip();
  }

  /** The session's Stop: cancels the run and settles a waiting approval as skipped. */
  stopRun(): void {
    this.#deps.workbench.stop();
    this.#deps.editor.skip("Stopped by the person.");
  }

  #runModelCode(code: string, toolCallId: string): Promise<RunResult> {
    this.#deps.editor.show(code, toolCallId);
    const preApproved = this.#preApproved === toolCallId;
    this.#preApproved = undefined;
    return this.#deps.workbench.run(code, {
      preApproved,
      source: "chat",
      limits: this.#deps.limits(),
      onRecorded: (record) => this.chatRuns.link(toolCallId, record),
    });
  }
}
