/**
 * The registry of live stdio bridge sessions in this process: starts children (with an
 * early-exit check so a missing command or a crash on start comes back as a clear error),
 * caps how many run at once, ends idle ones, and kills every child when the app exits.
 *
 * One registry per process, kept on globalThis: Next may instantiate this module once per
 * route bundle (and again on dev reloads), yet the start route and the session route must
 * see the same sessions, and the exit hook must be installed once.
 */
import "server-only";
import { RouteError } from "../../http/route-error";
import { positiveSetting } from "../../http/server/deployment";
import { randomUUID } from "node:crypto";
import { stat } from "node:fs/promises";
import path from "node:path";
import { StdioChild } from "./stdio-child";
import type { ChildExit, StdioLaunch } from "./stdio-child";
import { describeExit, scrubSecrets } from "../stdio-errors";
import { BridgeSession } from "./stdio-session";
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
};

/** What a successful start returns to the browser. */
export interface StartedSession {
  session: string;
  pid: number;
}

// Why recently ended sessions ended, so a late request gets the reason instead of a bare 404.
const MAX_ENDED = 32;

/** Live sessions of this process. */
export class StdioSessionRegistry {
  limits: StdioBridgeLimits = { ...DEFAULT_STDIO_LIMITS };
  private readonly sessions = new Map<string, BridgeSession>();
  private readonly ended = new Map<string, RouteError>();
  /** The page channel each session was started or last used through (docs/ARCHITECTURE.md, "The channel"). */
  private readonly owners = new Map<string, string>();
  private readonly orphanTimers = new Map<string, NodeJS.Timeout>();
  private starting = 0;

  /** Number of live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Overrides some limits (tests, or a future settings screen). */
  configure(limits: Partial<StdioBridgeLimits>): void {
    this.limits = { ...this.limits, ...limits };
  }

  /**
   * Spawns the command and opens a session for it; throws RouteError when it cannot start.
   * `owner` is the page channel it was started through, when it was.
   */
  async start(launch: StdioLaunch, owner?: string): Promise<StartedSession> {
    if (this.sessions.size + this.starting >= this.limits.maxSessions) {
      throw new RouteError(
        "too_many:stdio",
        `At most ${this.limits.maxSessions} local stdio servers may run at once, every tab's together (CMP_STDIO_MAX_SESSIONS); the page tries again as others end, or disconnect one`,
      );
    }
    this.starting++;
    try {
      const secrets = Object.values(launch.env);
      const cwd = launch.cwd === undefined ? undefined : path.resolve(launch.cwd);
      if (cwd !== undefined && !(await isDirectory(cwd))) {
        throw new RouteError("start_failed:stdio", scrubSecrets(`Working directory not found: ${cwd}`, secrets), { cause: "cwd_not_found" });
      }
      const child = spawnChild({ ...launch, ...(cwd === undefined ? {} : { cwd }) }, secrets);
      const early = await child.waitForEarlyExit(this.limits.startupGraceMs);
      if (early !== undefined || child.pid === undefined) {
        const exit: ChildExit = early ?? (await child.exited);
        throw describeExit({ exit, command: launch.command, output: child.diagnostics(), secrets, atStart: true });
      }
      const id = randomUUID();
      const session = await BridgeSession.open(id, child, {
        command: launch.command,
        secrets,
        idleMs: this.limits.idleMs,
        killGraceMs: this.limits.killGraceMs,
        onEnd: (ended, end) => this.onEnd(ended, end),
      });
      this.sessions.set(id, session);
      if (owner !== undefined) this.owners.set(id, owner);
      return { session: id, pid: child.pid };
    } finally {
      this.starting--;
    }
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

  /** Ends a session and kills its child; false when there was no such live session. */
  async close(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    await session.close("deleted");
    return true;
  }

  /** Ends every session, waiting for the children to go. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.close("shutdown")));
  }

  /** SIGKILLs every child synchronously: the process 'exit' hook cannot wait for anything. */
  killAllNow(): void {
    for (const session of this.sessions.values()) session.child.killNow();
  }

  private onEnd(session: BridgeSession, end: SessionEnd): void {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
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
