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
}

/** Defaults: 8 children, 10 min idle, 400 ms start-up watch, 2 s kill grace. */
export const DEFAULT_STDIO_LIMITS: Readonly<StdioBridgeLimits> = { maxSessions: 8, idleMs: 10 * 60_000, startupGraceMs: 400, killGraceMs: 2_000 };

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
  private starting = 0;

  /** Number of live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Overrides some limits (tests, or a future settings screen). */
  configure(limits: Partial<StdioBridgeLimits>): void {
    this.limits = { ...this.limits, ...limits };
  }

  /** Spawns the command and opens a session for it; throws RouteError when it cannot start. */
  async start(launch: StdioLaunch): Promise<StartedSession> {
    if (this.sessions.size + this.starting >= this.limits.maxSessions) {
      throw new RouteError("too_many:stdio", `At most ${this.limits.maxSessions} local stdio servers may run at once; disconnect one first`);
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
      return { session: id, pid: child.pid };
    } finally {
      this.starting--;
    }
  }

  /** The live session with this id. */
  get(id: string): BridgeSession | undefined {
    return this.sessions.get(id);
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
    const error =
      end.kind === "exited" ? end.error : new RouteError("not_found:stdio", `The stdio session ${session.id} was closed (${end.reason}); start a new one`);
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
    // 'exit' also runs after Next's own SIGINT/SIGTERM handlers call process.exit().
    process.once("exit", () => created.killAllNow());
    holder[REGISTRY_KEY] = created;
    registry = created;
  }
  return registry;
}
