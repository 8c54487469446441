/**
 * The registry of live stdio bridge sessions in this process: starts children (with an
 * early-exit check so a missing command or a crash on start comes back as a clear error),
 * caps how many run at once, ends idle ones, and kills every child when the app exits.
 *
 * Local servers belong to the person, not to a tab: a page that starts a server another page
 * runs already (the same command, arguments, environment and folder) gets a session on that
 * process (stdio-shared-child.ts), so the cap counts processes. A process no page holds stops at
 * once, except after a page closed (a reload, most often): it waits `lingerMs` for the page's
 * next load to take it over.
 *
 * Each process's era is learnt on its own pipe before a page uses it (`SharedChild.probeEra`):
 * a server that exits when asked is started once more without the question, within the same
 * start (the cap is not spent on probes); the verdict is kept per launch, so the next start of
 * the same server does not ask again. A person's forced era skips the question.
 *
 * One registry per process, kept on globalThis: Next may instantiate this module once per
 * route bundle (and again on dev reloads), yet the start route and the session route must
 * see the same sessions, and the exit hook must be installed once.
 */
import "server-only";
import { RouteError } from "../../../http/route-error";
import { positiveSetting } from "../../../http/server/deployment";
import { createHash, randomUUID } from "node:crypto";
import { stat } from "node:fs/promises";
import path from "node:path";
import { StdioChild } from "./stdio-child";
import type { ChildExit, StdioLaunch } from "./stdio-child";
import { describeExit, scrubSecrets } from "../stdio-errors";
import { BridgeSession } from "./stdio-session";
import { ExitedOnProbe, SharedChild, type ProcessEra } from "./stdio-shared-child";
import type { SessionEnd } from "./stdio-session";

/** Limits of the bridge. */
export interface StdioBridgeLimits {
  /** Children running at once. */
  maxSessions: number;
  /** A session without any request for this long is ended (in-flight calls keep it alive). */
  idleMs: number;
  /** How long a new child is watched for an immediate exit before the start succeeds. */
  startupGraceMs: number;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /** How long the sessions of a page whose channel closed wait for it to come back before they end. */
  orphanGraceMs: number;
  /** How long a process whose last page closed waits for a page to take it over (a reload). */
  lingerMs: number;
  /** How long a new process may take to answer `server/discover` before it is taken for a 2025 one. */
  probeMs: number;
}

/**
 * Defaults: 32 children (a person's ten or so servers in a few tabs; CMP_STDIO_MAX_SESSIONS
 * sets another), 10 min idle, 400 ms start-up watch, 2 s kill grace, 30 s for a page whose
 * channel closed to come back before its servers end.
 */
export const DEFAULT_STDIO_LIMITS: Readonly<StdioBridgeLimits> = {
  maxSessions: 32,
  idleMs: 10 * 60_000,
  startupGraceMs: 400,
  killGraceMs: 2_000,
  orphanGraceMs: 30_000,
  lingerMs: 10_000,
  probeMs: 5_000,
};

/** What a successful start returns to the browser. */
export interface StartedSession {
  session: string;
  pid: number;
  /** Other pages' sessions on the same process when this one started. */
  sharedWith: number;
  /** The revision the process speaks, as its probe found or the person forced when it started. */
  era: ProcessEra;
}

/** A running process and the pages' shares of it. */
interface Running {
  key: string;
  child: StdioChild;
  shared: SharedChild;
  era: ProcessEra;
  /** Set while a process nobody holds waits for a page to take it over. */
  linger?: NodeJS.Timeout;
  /** Set once it is being stopped: no new page may take it. */
  stopping?: Promise<ChildExit>;
}

/** Which launches share a process: the same command, arguments, environment and folder (a digest: env values are secrets). */
function launchKey(launch: StdioLaunch): string {
  const env = Object.entries(launch.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify([launch.command, launch.args, env, launch.cwd ?? null]))
    .digest("base64url");
}

// Why recently ended sessions ended, so a late request gets the reason instead of a bare 404.
const MAX_ENDED = 32;

/** Live sessions of this process. */
export class StdioSessionRegistry {
  limits: StdioBridgeLimits = { ...DEFAULT_STDIO_LIMITS };
  private readonly sessions = new Map<string, BridgeSession>();
  private readonly ended = new Map<string, RouteError>();
  /** The page channel each session was started or last used through (docs/channel.md, "The channel"). */
  private readonly owners = new Map<string, string>();
  private readonly orphanTimers = new Map<string, NodeJS.Timeout>();
  /** Running processes by launch key, and the starts under way (a second page waits for the first's). */
  private readonly running = new Map<string, Running[]>();
  private readonly starts = new Map<string, Array<{ owner: string | undefined; run: Promise<Running> }>>();
  private readonly runOf = new Map<string, Running>();
  /** The era each launch's process was found to speak, so a later start does not ask again. */
  private readonly verdicts = new Map<string, ProcessEra>();

  /** Number of live sessions (pages' shares; several may share one process). */
  get size(): number {
    return this.sessions.size;
  }

  /** Number of running processes (what the cap counts). */
  get processes(): number {
    return [...this.running.values()].reduce((sum, runs) => sum + runs.length, 0);
  }

  /** Overrides some limits (tests, or a future settings screen). */
  configure(limits: Partial<StdioBridgeLimits>): void {
    this.limits = { ...this.limits, ...limits };
  }

  /**
   * Opens a session on the command's process, spawning it unless a page runs it already;
   * throws RouteError when it cannot start. `owner` is the page channel it was started through.
   */
  async start(launch: StdioLaunch, owner?: string, options: { fresh?: boolean; era?: ProcessEra } = {}): Promise<StartedSession> {
    const cwd = launch.cwd === undefined ? undefined : path.resolve(launch.cwd);
    const resolved: StdioLaunch = { ...launch, ...(cwd === undefined ? {} : { cwd }) };
    const key = launchKey(resolved);
    // A fresh start (the person's Reconnect) restarts the server: the process other pages share
    // stops (their pages connect again, to the new one), so a server that misbehaves gets a new
    // process without passing the cap,
    if (options.fresh) {
      // and asks its era again: the server may have moved to another revision.
      this.verdicts.delete(key);
      await this.restart(key);
    }
    const run = await this.processFor(key, resolved, owner, options.era);
    clearTimeout(run.linger);
    run.linger = undefined;
    const sharedWith = run.shared.size;
    const id = randomUUID();
    const session = await BridgeSession.open(id, run.child, run.shared.attach(), {
      command: launch.command,
      secrets: Object.values(launch.env),
      idleMs: this.limits.idleMs,
      onEnd: (ended, end) => this.onEnd(ended, end),
    });
    this.sessions.set(id, session);
    this.runOf.set(id, run);
    if (owner !== undefined) this.owners.set(id, owner);
    return { session: id, pid: run.child.pid ?? 0, sharedWith, era: run.era };
  }

  /**
   * The process for `key` this page may use: one another page runs already, or one another page
   * is starting, or a new one. A page never shares with itself (two entries of one command in a
   * page are two processes), and a start with no page (plain HTTP, no channel) shares nothing.
   */
  private async processFor(key: string, launch: StdioLaunch, owner: string | undefined, era: ProcessEra | undefined): Promise<Running> {
    if (owner !== undefined) {
      const live = (this.running.get(key) ?? []).find((run) => run.child.alive && !run.stopping && !this.heldBy(run, owner));
      if (live) return live;
      const pending = (this.starts.get(key) ?? []).find((start) => start.owner !== undefined && start.owner !== owner);
      if (pending) return pending.run;
    }
    const count = this.processes + [...this.starts.values()].reduce((sum, starts) => sum + starts.length, 0);
    if (count >= this.limits.maxSessions) {
      const pages = new Set([...this.sessions.keys()].map((id) => this.owners.get(id) ?? id)).size;
      const lingering = [...this.running.values()].flat().filter((run) => run.shared.size === 0).length;
      const held = `${this.processes} run now for ${pages} ${pages === 1 ? "page" : "pages"}${lingering > 0 ? `, ${lingering} of them waiting a few seconds for a reloaded page` : ""}`;
      throw new RouteError(
        "too_many:stdio",
        `At most ${this.limits.maxSessions} local stdio servers may run at once, every tab's together: ${held} (tabs share a server's process). Set CMP_STDIO_MAX_SESSIONS for more. The page tries again as others end, or disconnect one.`,
      );
    }
    const start = { owner, run: this.spawnProcess(key, launch, era) };
    this.starts.set(key, [...(this.starts.get(key) ?? []), start]);
    try {
      return await start.run;
    } finally {
      const left = (this.starts.get(key) ?? []).filter((other) => other !== start);
      if (left.length > 0) this.starts.set(key, left);
      else this.starts.delete(key);
    }
  }

  /** Ends every page's session on the processes of `key` and waits for those processes to go. */
  private async restart(key: string): Promise<void> {
    const runs = this.running.get(key) ?? [];
    const sessions = [...this.runOf].flatMap(([id, run]) => {
      const session = runs.includes(run) ? this.sessions.get(id) : undefined;
      return session ? [session] : [];
    });
    await Promise.all(sessions.map((session) => session.close("restarted")));
    await Promise.all(runs.map((run) => this.stop(run)));
  }

  /** Whether a session of page `owner` is on `run` already. */
  private heldBy(run: Running, owner: string): boolean {
    for (const [id, held] of this.runOf) if (held === run && this.owners.get(id) === owner) return true;
    return false;
  }

  private async spawnProcess(key: string, launch: StdioLaunch, forced: ProcessEra | undefined): Promise<Running> {
    const secrets = Object.values(launch.env);
    if (launch.cwd !== undefined && !(await isDirectory(launch.cwd))) {
      throw new RouteError("start_failed:stdio", scrubSecrets(`Working directory not found: ${launch.cwd}`, secrets), { cause: "cwd_not_found" });
    }
    const child = spawnChild(launch, secrets);
    const early = await child.waitForEarlyExit(this.limits.startupGraceMs);
    if (early !== undefined || child.pid === undefined) {
      const exit: ChildExit = early ?? (await child.exited);
      throw describeExit({ exit, command: launch.command, output: child.diagnostics(), secrets, atStart: true });
    }
    const shared = new SharedChild(child);
    let era = forced ?? this.verdicts.get(key);
    if (era === undefined) {
      try {
        era = await shared.probeEra(this.limits.probeMs, child.exited);
      } catch (error) {
        if (!(error instanceof ExitedOnProbe)) throw error;
        // It ends on anything before `initialize`: a 2025 server, started once more without the question.
        this.verdicts.set(key, "legacy");
        return this.spawnProcess(key, launch, "legacy");
      }
      this.verdicts.set(key, era);
    }
    const run: Running = { key, child, shared, era };
    run.shared.onVacant = (why) => this.vacated(run, why);
    this.running.set(key, [...(this.running.get(key) ?? []), run]);
    void child.exited.then(() => {
      clearTimeout(run.linger);
      this.forget(run);
    });
    return run;
  }

  private forget(run: Running): void {
    const left = (this.running.get(run.key) ?? []).filter((other) => other !== run);
    if (left.length > 0) this.running.set(run.key, left);
    else this.running.delete(run.key);
  }

  /** No page holds `run` any more: stop it, or after a page closed, wait a little for its next load. */
  private vacated(run: Running, why: string | undefined): void {
    if (why === "page closed") {
      clearTimeout(run.linger);
      run.linger = setTimeout(() => {
        if (run.shared.size === 0) void this.stop(run);
      }, this.limits.lingerMs);
      run.linger.unref();
      return;
    }
    void this.stop(run);
  }

  private stop(run: Running): Promise<ChildExit> {
    clearTimeout(run.linger);
    run.stopping ??= run.child.stop(this.limits.killGraceMs);
    this.forget(run);
    return run.stopping;
  }

  /** The live session with this id. */
  get(id: string): BridgeSession | undefined {
    return this.sessions.get(id);
  }

  /** A request for session `id` came through channel `owner`: the session is that page's now, and stays. */
  adopt(id: string, owner: string): void {
    if (!this.sessions.has(id)) return;
    this.owners.set(id, owner);
    clearTimeout(this.orphanTimers.get(id));
    this.orphanTimers.delete(id);
  }

  /**
   * The channel `owner` closed. A page that said it is gone (`now`: a tab closed, the page
   * reloaded) ends its sessions at once, so a reloaded page's servers find their slots free; a
   * channel that broke (the network dropped, the app restarted) keeps them for the grace, unless
   * a request adopts them first (a page that reconnected).
   */
  release(owner: string, options: { now?: boolean } = {}): void {
    for (const [id, held] of this.owners) {
      if (held !== owner) continue;
      if (options.now) {
        clearTimeout(this.orphanTimers.get(id));
        this.orphanTimers.delete(id);
        void this.sessions.get(id)?.close("page closed");
        continue;
      }
      if (this.orphanTimers.has(id)) continue;
      const timer = setTimeout(() => {
        this.orphanTimers.delete(id);
        if (this.owners.get(id) === owner) void this.sessions.get(id)?.close("page closed");
      }, this.limits.orphanGraceMs);
      timer.unref();
      this.orphanTimers.set(id, timer);
    }
  }

  /** Why the session with this id ended, when it ended recently. */
  endedError(id: string): RouteError | undefined {
    return this.ended.get(id);
  }

  /** Ends a session, and its process when no other page holds it (waiting for it to go); false when there was no such live session. */
  async close(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    const run = this.runOf.get(id);
    await session.close("deleted");
    if (run?.stopping) await run.stopping;
    return true;
  }

  /** Ends every session and stops every process, waiting for them to go. */
  async closeAll(): Promise<void> {
    const runs = new Set([...[...this.running.values()].flat(), ...this.runOf.values()]);
    await Promise.all([...this.sessions.values()].map((session) => session.close("shutdown")));
    await Promise.all([...runs].map((run) => this.stop(run)));
  }

  /** SIGKILLs every child synchronously: the process 'exit' hook cannot wait for anything. */
  killAllNow(): void {
    for (const runs of this.running.values()) for (const run of runs) run.child.killNow();
    for (const session of this.sessions.values()) session.child.killNow();
  }

  private onEnd(session: BridgeSession, end: SessionEnd): void {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    this.runOf.delete(session.id);
    this.owners.delete(session.id);
    clearTimeout(this.orphanTimers.get(session.id));
    this.orphanTimers.delete(session.id);
    // 404 either way: to an MCP client that means "this session is over, start another" (the
    // page then starts the server again); the message says why it is over.
    const error =
      end.kind === "exited"
        ? new RouteError("not_found:stdio", end.error.message, end.error.causeKind ? { cause: end.error.causeKind } : {})
        : new RouteError("not_found:stdio", `The stdio session ${session.id} was closed (${end.reason}); start a new one`);
    this.ended.set(session.id, error);
    for (const key of this.ended.keys()) {
      if (this.ended.size <= MAX_ENDED) break;
      this.ended.delete(key);
    }
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function spawnChild(launch: StdioLaunch, secrets: readonly string[]): StdioChild {
  try {
    return StdioChild.spawn(launch);
  } catch (error) {
    // Synchronous spawn errors quote the offending argument or env value: keep only the code.
    const code = (error as NodeJS.ErrnoException).code ?? "invalid arguments";
    throw new RouteError("start_failed:stdio", scrubSecrets(`Could not start "${launch.command}" (${code})`, secrets), { cause: "spawn_error" });
  }
}

const REGISTRY_KEY = Symbol.for("code-mode-playground.stdio-sessions");

/** The process-wide registry; the first call installs the exit hook that kills every child. */
export function getStdioSessions(): StdioSessionRegistry {
  const holder = globalThis as unknown as Record<symbol, StdioSessionRegistry | undefined>;
  let registry = holder[REGISTRY_KEY];
  if (!registry) {
    const created = new StdioSessionRegistry();
    const max = positiveSetting(process.env.CMP_STDIO_MAX_SESSIONS);
    if (max !== undefined) created.configure({ maxSessions: Math.floor(max) });
    // 'exit' also runs after Next's own SIGINT/SIGTERM handlers call process.exit().
    process.once("exit", () => created.killAllNow());
    holder[REGISTRY_KEY] = created;
    registry = created;
  }
  return registry;
}
