/**
 * The page's state, created once (docs/page-state.md, "Page state"): the servers, the workbench,
 * the editor, the model settings, the run limits, the page's tool world and the chat session,
 * wired here and nowhere else. The browser builds one before React hydrates
 * (lib/playground/browser/page-playground.ts); panels read their slices through `useStore`; Node
 * tests build one with their own collaborators. Constructing does nothing outside the object:
 * `start()` connects the servers and starts the sandbox worker.
 */
import { ServerRegistry } from "../mcp/registry";
import type { ConnectOptions } from "../mcp/connection";
import type { Connector } from "../mcp/connection-manager";
import type { RootsStore } from "../mcp/roots";
import type { CodeStore } from "../editor/code-store";
import { ChatSession } from "../model/chat-session";
import type { ModelStep } from "../model/agent-loop";
import type { ChatRequestExtras } from "../model/request-schema";
import { handlersForMode } from "../model/tool-handler";
import type { ApprovalPolicy } from "../host-calls/approvals";
import type { WorkerLike } from "../sandbox/run-controller";
import { EditorState } from "./editor-state";
import { ModelSettings, modelChoice, requestExtras } from "./model-settings";
import { PageServers } from "./page-servers";
import { PageWorld } from "./page-world";
import { AppContexts } from "./app-contexts";
import { RunLimits } from "./run-limits";
import { Workbench } from "./workbench";
import { CompareTask, EvalsTask } from "./page-tasks";
import { Store } from "../state/store";
import { manualResultMessage } from "../model/manual-result";
import type { RunResult } from "../sandbox/types";
import type { ShareState } from "../share/schema";
import { applyShare, readySharedReplay } from "./share-open";
import { SkillDialogStore, SkillInViewStore, SkillStore } from "./skill-store";
import { runSkillTest } from "../skills/skill-tests";
import { SKILLS_NAMESPACE, skillNameProblem } from "../skills/skill";
import { NO_RUN_STATS } from "../sandbox/errors";
import { hashCode } from "../text/hash";
import { recordEnd, recordStart, type RunRecord } from "../timeline/run-record";
import type { KeyValueStore } from "../storage/key-value";
import { parseDataGlobals } from "../editor/data-globals";
import { messageOf } from "../text/error-message";
import type { TextStorage } from "../storage/key-value";
import type { RemovableTextStorage } from "../storage/key-value";
import type { AppHostPage } from "../mcp-apps/app-host";
import { chatBusy } from "../model/chat-session";

/** A run the person started from the editor, which they can hand to the model as their next message. */
export interface EditorRun {
  code: string;
  result: RunResult;
}

class EditorRunStore extends Store<EditorRun | undefined> {
  put(run: EditorRun | undefined): void {
    this.set(run);
  }
}

/** What the page is built from: storage, how connections and runs are made. */
export interface PlaygroundEnv {
  registry: ServerRegistry;
  connectOptions: ConnectOptions;
  oauth?: ConnectOptions["oauth"];
  connector?: Connector;
  roots?: RootsStore;
  /** Where the tasks the page's calls started are kept across reloads (lib/mcp/server-tasks.ts); none: this page only. */
  taskStorage?: TextStorage;
  createWorker: () => WorkerLike;
  /** Resolves once the page has shown a run's start (the browser: after React's render). */
  afterRunStart?: () => Promise<void>;
  /** When the sandbox worker makes its warm-up run (the browser: once the page is idle); at once unless given. */
  whenIdle?: (warm: () => void) => void;
  /** Opens a link an MCP App asked for and the person allowed, in a new tab without an opener (the page: window.open). */
  openLink?: (url: string) => void;
  codeStore?: CodeStore;
  settingsStorage?: RemovableTextStorage;
  limitsStorage?: TextStorage;
  /** The chat's model step over the next request's body fields (the browser: POST /api/chat, lib/model/browser/http-model-step.ts). */
  modelStep: (body: () => ChatRequestExtras) => ModelStep;
  /** Where skills are kept (the browser: IndexedDB); none: only for this page's life. */
  skillStorage?: KeyValueStore;
}

export class Playground {
  /** The person's skills: programs kept as tools (lib/skills/). */
  readonly skills: SkillStore;
  /** The run the Save as skill dialog is open for. */
  readonly skillDialog = new SkillDialogStore(undefined);
  /** The skill the Skills tab shows. */
  readonly skillInView = new SkillInViewStore(undefined);
  readonly servers: PageServers;
  readonly workbench: Workbench;
  readonly editor: EditorState;
  readonly model: ModelSettings;
  readonly limits: RunLimits;
  readonly world: PageWorld;
  readonly chat: ChatSession;
  /** What MCP Apps asked to tell the model, allowed by the person, for the next message. */
  readonly appContexts = new AppContexts();
  /**
   * What the page does for an MCP App's view: the page's side of each `AppHost`
   * (lib/mcp-apps/app-host.ts), which the view builds, so the host's code loads with the first app.
   */
  readonly appPage: AppHostPage;
  /** The last run started from the editor, until it is sent to the chat or another starts. */
  readonly editorRun = new EditorRunStore(undefined);
  readonly compare: CompareTask;
  readonly evals: EvalsTask;
  /** A model step over body fields (the chat's, a compare lane's, an eval run's, a sampling request's). */
  readonly modelStep: PlaygroundEnv["modelStep"];

  constructor(env: PlaygroundEnv) {
    this.skills = new SkillStore(env.skillStorage);
    this.servers = new PageServers({
      skills: { store: this.skills, trusted: this.skills.trusted },
      registry: env.registry,
      connectOptions: env.connectOptions,
      ...(env.oauth ? { oauth: env.oauth } : {}),
      ...(env.connector ? { connector: env.connector } : {}),
      ...(env.roots ? { roots: env.roots } : {}),
      ...(env.taskStorage ? { taskStorage: env.taskStorage } : {}),
    });
    this.workbench = new Workbench({
      createWorker: env.createWorker,
      live: this.servers,
      skills: this.skills.trusted,
      heldSkills: this.skills.held,
      ...(env.afterRunStart ? { afterStart: env.afterRunStart } : {}),
      ...(env.whenIdle ? { whenIdle: env.whenIdle } : {}),
    });
    this.editor = new EditorState(env.codeStore ? { codeStore: env.codeStore } : {});
    this.model = new ModelSettings(env.settingsStorage);
    this.limits = new RunLimits(env.limitsStorage);
    const catalog = () => this.servers.view.snapshot().catalog;
    this.world = new PageWorld({ workbench: this.workbench, editor: this.editor, catalog, limits: () => this.limits.snapshot() });
    this.modelStep = env.modelStep;
    const modelStep = env.modelStep(() => requestExtras(this.model.snapshot(), catalog()));
    // Read when a loop starts: the tool mode, step mode and policy in effect then.
    this.chat = new ChatSession(
      () => {
        const state = this.model.snapshot();
        const { settings } = state;
        return {
          modelStep,
          handlers: handlersForMode(settings.toolMode, this.world.world().handlers),
          stopRun: () => this.world.stopRun(),
          policy: { maxSteps: settings.maxSteps, returnDirectly: settings.returnDirectly },
          stepMode: this.approvalPolicy().program === "ask",
          resultBudgetTokens: settings.resultBudgetTokens,
        };
      },
      (signal) => this.servers.settled(signal),
      this.appContexts.take,
    );
    this.compare = new CompareTask(this);
    this.evals = new EvalsTask(this);
    this.appPage = {
      readResource: (server, uri) => this.servers.readResourceOf(server, uri),
      serverTools: (server) => this.servers.toolsOf(server),
      callForApp: (server, name, args, options) => this.workbench.callForApp(server, name, args, options),
      chatBusy: () => chatBusy(this.chat.snapshot()),
      sendToChat: (text) => void this.chat.send(text),
      putContext: (key, label, text) => this.appContexts.put(key, label, text),
      openLink: (url) => env.openLink?.(url),
      ...(this.servers.appOrigin ? { origin: this.servers.appOrigin } : {}),
    };
  }

  /** Who approves what in this page now: step mode as the settings say, each call that needs approval put to the person. */
  approvalPolicy(): ApprovalPolicy {
    return this.workbench.policy({ stepMode: modelChoice(this.model.snapshot(), this.servers.view.snapshot().catalog).stepMode });
  }

  /** Runs `code` (the editor's, by default) as the person's run; its result can then go to the chat. */
  runFromEditor(code: string = this.editor.snapshot().code): void {
    this.editorRun.put(undefined);
    // Inputs that do not parse are refused where they are typed; a run never guesses them.
    const inputs = parseDataGlobals(this.editor.snapshot().data);
    const data = inputs.ok ? inputs.data : {};
    void this.workbench.run(code, { limits: this.limits.snapshot(), data }).then((result) => this.editorRun.put({ code, result }));
  }

  /**
   * The recorded run of a chat program (its tool call's id): the link made when it ran, else (a
   * restored conversation) the newest chat run of the same code, else the linked id of a run no
   * longer kept.
   */
  runOfToolCall(toolCallId: string): string | undefined {
    const linked = this.world.chatRuns.snapshot()[toolCallId];
    if (linked !== undefined && this.workbench.history.snapshot().some((e) => e.record.id === linked)) return linked;
    const part = this.chat
      .snapshot()
      .messages.flatMap((m) => m.parts)
      .find((p) => "toolCallId" in p && p.toolCallId === toolCallId);
    const input = part && "input" in part ? (part.input as { code?: unknown } | undefined) : undefined;
    const hash = typeof input?.code === "string" ? hashCode(input.code) : undefined;
    const sameCode = hash && this.workbench.history.snapshot().find((e) => e.source === "chat" && recordStart(e.record)?.codeHash === hash)?.record.id;
    // A linked run no longer kept is still named: the timeline says it was let go, rather than nothing happening.
    return sameCode || linked;
  }

  /** The newest run of the editor's code as it is now that worked: what "Save as skill" saves. */
  runToSave(code: string = this.editor.snapshot().code): RunRecord | undefined {
    const hash = hashCode(code);
    return this.workbench.history
      .snapshot()
      .find((entry) => recordStart(entry.record)?.codeHash === hash && recordEnd(entry.record)?.ok === true && entry.source !== "app")?.record;
  }

  /**
   * Replays a skill's tests offline in the skills' worker (docs/agents.md, "Skills"),
   * checking the recorded calls against the tools connected now; the results land in the skill store.
   */
  async testSkill(name: string): Promise<void> {
    const entry = this.skills.get(name);
    if (!entry) return;
    const { skill } = entry;
    if (skill.tests.length === 0)
      return this.skills.setTests(name, { state: "failed", message: "This skill has no tests: save it again from a run that worked." });
    this.skills.setTests(name, { state: "running" });
    const signal = new AbortController().signal;
    const run: Parameters<typeof runSkillTest>[2] = (request, host) =>
      this.workbench.runSkill({ ...request, limits: this.limits.snapshot() }, host, () => undefined, signal);
    const connected = this.servers.view.snapshot().connected;
    const tools = (server: string, tool: string) => connected.find((s) => s.config.name === server)?.tools.find((t) => t.name === tool);
    try {
      const results = [];
      for (const test of skill.tests) results.push(await runSkillTest(skill, test, run, tools));
      // A skill changed while its tests ran keeps no stale results.
      if (this.skills.get(name)?.skill === skill) this.skills.setTests(name, { state: "done", results, at: Date.now() });
    } catch (error) {
      this.skills.setTests(name, { state: "failed", message: messageOf(error) });
    }
  }

  /** Calls a skill as a program of its own from the editor's side (its test-call form): the run and its nested calls land on the timeline. */
  callSkill(name: string, input: Record<string, unknown>): Promise<RunResult> {
    const entry = this.skills.get(name);
    // Only a kept, trusted skill's name (an identifier, checked when kept) is ever written into code.
    if (entry?.status !== "trusted" || skillNameProblem(name))
      return Promise.resolve({ ok: false, error: { kind: "runtime", message: `There is no skill "${name}" to call.` }, logs: [], stats: NO_RUN_STATS });
    return this.workbench.run(`return await ${SKILLS_NAMESPACE}.${name}(${JSON.stringify(input)});`, { limits: this.limits.snapshot() });
  }

  /** Sends the editor run's result to the model as the person's next message (only into a conversation). */
  sendEditorRun(): void {
    const run = this.editorRun.snapshot();
    if (!run || this.chat.snapshot().messages.length === 0) return;
    void this.chat.send(manualResultMessage(run.code, run.result));
    this.editorRun.put(undefined);
  }

  /** Opens a shared playground: its code in the editor, its runs in the history, its limits and conversation. It never starts a run (DESIGN: shared code never runs by itself). */
  openShare(state: ShareState): void {
    const refused: string[] = [];
    const opened = applyShare(state, {
      addRun: (record, source) => this.workbench.history.add(record, source),
      setCode: this.editor.setCode,
      setData: this.editor.setData,
      adoptLimits: this.limits.adopt,
      restoreConversation: (messages) => void this.chat.restore(messages),
      importSkills: (skills) => refused.push(...this.skills.importSkills(skills, "a share link").refused),
    });
    this.skills.noteShared([...opened.skillsRefused, ...refused]);
  }

  /** Arms a shared run for replay: the next Run answers from its recording, offline; no server is contacted. */
  replayShared(run: unknown): void {
    const record = readySharedReplay(run, { addRun: (r, source) => this.workbench.history.add(r, source), setCode: this.editor.setCode });
    if (record) this.workbench.replay.arm({ record, onMismatch: "stop" });
  }

  /** Reads the settings, starts the sandbox worker and connects the servers. */
  start(): void {
    this.model.load();
    void this.skills.load();
    this.workbench.start();
    void this.servers.start();
  }

  /** Closes the connections and the workers, and answers everything still waiting. */
  async dispose(): Promise<void> {
    this.editor.flush();
    this.editor.skip("The page was closed.");
    this.workbench.dispose();
    await this.servers.dispose();
  }
}

/**
 * A playground for rendering on the server: the same stores, nothing started. Panels read them
 * through `useStore`, whose server value is the fallback, so this only has to exist.
 */
export function renderOnlyPlayground(): Playground {
  const browserOnly = (): never => {
    throw new Error("The sandbox and the model are reached from the browser only.");
  };
  return new Playground({
    registry: new ServerRegistry({ seedDemoServers: false }),
    connectOptions: { baseUrl: "http://localhost", proxyUrl: "/api/mcp/proxy" },
    createWorker: browserOnly,
    modelStep: () => browserOnly,
  });
}
