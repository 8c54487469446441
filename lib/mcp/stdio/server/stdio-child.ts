/**
 * One local stdio MCP server process: spawns it, frames JSON-RPC over its stdin/stdout
 * (newline-delimited, as the MCP stdio transport defines), keeps a bounded tail of its stderr
 * for error messages, and stops it (SIGTERM, then SIGKILL after a grace period).
 *
 * Spawned by hand rather than through the SDK's StdioClientTransport because the bridge needs
 * what that class keeps private: the exit code and signal, an early-exit wait, a synchronous
 * kill for process exit, and killing the whole process group.
 *
 * On POSIX the child leads its own process group (`detached`), so `npx foo` / `uvx foo`
 * wrappers die together with the server they started; the registry kills every group when
 * the app exits, so detaching never leaves orphans behind on a normal exit.
 * Not handled: Windows `.cmd` shims (`npx.cmd`) need a shell since Node 20.12; the person
 * can pass `cmd /c npx ...` there.
 */
import "server-only";
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { deserializeMessage, serializeMessage, type JSONRPCMessage } from "@modelcontextprotocol/client";

/** What to run. `env` values are secrets. */
export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** How a child ended: exit code or signal, or the spawn error when it never ran. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** errno code of a failed spawn ("ENOENT", "EACCES"), when the process never started. */
  spawnError?: string;
}

const DIAGNOSTIC_TAIL_CHARS = 8 * 1024;
const MAX_LINE_BYTES = 16 * 1024 * 1024;
// After 'exit', stderr may still hold the lines that explain it; 'close' normally follows at once.
const CLOSE_AFTER_EXIT_MS = 250;
const DETACH = process.platform !== "win32";

/** A running (or ended) stdio server process. */
export class StdioChild {
  /** Called for every JSON-RPC message the child writes to stdout. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Resolves once, when the process has ended (or failed to spawn). */
  readonly exited: Promise<ChildExit>;

  private readonly process: ChildProcess;
  private tail = "";
  private stdoutBuffer: Buffer = Buffer.alloc(0);
  private exit: ChildExit | undefined;

  private constructor(launch: StdioLaunch) {
    // The app's own environment (model API keys…) is not passed on: only the SDK's short list of
    // safe variables (PATH, HOME…) plus what the person configured for this server.
    this.process = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      // Cast: Next's typings make NODE_ENV required in ProcessEnv; the child must not inherit ours.
      env: { ...getDefaultEnvironment(), ...launch.env } as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      detached: DETACH,
      windowsHide: true,
    });
    this.exited = new Promise<ChildExit>((resolve) => {
      const finish = (exit: ChildExit) => {
        if (this.exit) return;
        this.exit = exit;
        resolve(exit);
      };
      this.process.on("error", (error: NodeJS.ErrnoException) => {
        // 'error' also fires for a failed kill or write; only a missing pid means it never ran.
        if (this.process.pid === undefined) finish({ code: null, signal: null, spawnError: error.code ?? "UNKNOWN" });
      });
      this.process.once("exit", (code, signal) => {
        setTimeout(() => finish({ code, signal }), CLOSE_AFTER_EXIT_MS).unref();
      });
      this.process.once("close", (code, signal) => finish({ code, signal }));
    });
    this.process.stderr?.setEncoding("utf8");
    this.process.stderr?.on("data", (chunk: string) => this.record(chunk));
    this.process.stdout?.on("data", (chunk: Buffer) => this.readStdout(chunk));
    // EPIPE when the child dies mid-write: the exit path reports it, nothing to do here.
    this.process.stdin?.on("error", () => undefined);
  }

  /** Spawns the process. Spawn failures (missing command) surface through `exited`. */
  static spawn(launch: StdioLaunch): StdioChild {
    return new StdioChild(launch);
  }

  /** Process id, once spawned. */
  get pid(): number | undefined {
    return this.process.pid;
  }

  /** True until the process has ended. */
  get alive(): boolean {
    return this.exit === undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** The last few KB of stderr (and of stdout lines that were not JSON-RPC). Not scrubbed. */
  diagnostics(): string {
    return this.tail;
  }

  /** Waits up to `ms` for an early exit; undefined means the child is still running. */
  async waitForEarlyExit(ms: number): Promise<ChildExit | undefined> {
    let cancel: () => void = () => undefined;
    const timeout = new Promise<undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ms);
      cancel = () => clearTimeout(timer);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      cancel();
    }
  }

  /** Writes one message to the child's stdin; dropped when the child is gone. */
  send(message: JSONRPCMessage): void {
    const stdin = this.process.stdin;
    if (!this.alive || !stdin || stdin.destroyed) return;
    stdin.write(serializeMessage(message));
  }

  /** Ends the child: stdin closed and SIGTERM, then SIGKILL after `graceMs`. Resolves when it is gone. */
  async stop(graceMs: number): Promise<ChildExit> {
    if (this.alive) {
      this.process.stdin?.end();
      this.signal("SIGTERM");
      if ((await this.waitForEarlyExit(graceMs)) === undefined) this.signal("SIGKILL");
    }
    return this.exited;
  }

  /** SIGKILL now, synchronously: for the process 'exit' hook, which cannot wait. */
  killNow(): void {
    if (this.alive) this.signal("SIGKILL");
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.process.pid;
    if (pid === undefined) return;
    try {
      // A negative pid signals the whole group the detached child leads.
      if (DETACH) process.kill(-pid, signal);
      else this.process.kill(signal);
    } catch {
      // ESRCH: already gone (or the group leader exited first); try the process itself.
      try {
        this.process.kill(signal);
      } catch {
        // Already gone.
      }
    }
  }

  private record(text: string): void {
    this.tail = (this.tail + text).slice(-DIAGNOSTIC_TAIL_CHARS);
  }

  private readStdout(chunk: Buffer): void {
    this.stdoutBuffer = Buffer.concat([this.stdoutBuffer, chunk]);
    for (;;) {
      const end = this.stdoutBuffer.indexOf(0x0a);
      if (end === -1) break;
      const line = this.stdoutBuffer.toString("utf8", 0, end).replace(/\r$/, "");
      this.stdoutBuffer = this.stdoutBuffer.subarray(end + 1);
      if (line.trim() === "") continue;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch {
        // Servers that log to stdout break the protocol; keep the line for the error message.
        this.record(`[stdout] ${line.slice(0, 500)}\n`);
        continue;
      }
      this.onmessage?.(message);
    }
    if (this.stdoutBuffer.length > MAX_LINE_BYTES) {
      this.record(`[stdout] a line longer than ${MAX_LINE_BYTES} bytes was dropped\n`);
      this.stdoutBuffer = Buffer.alloc(0);
    }
  }
}
