/**
 * Per-server caps on tool calls in flight (a server setting in the page, `codeMode.callsInFlight`
 * in the code-mode server's config). Code mode makes `Promise.all` over a server easy, and some
 * real servers lose data under concurrent calls (`server-memory` kept 55 of 200 entities written
 * five at a time: each call reads its file, changes it and writes it back). With a cap of 1 the
 * calls to that server run one after another, in the order they were made, whatever the program
 * does; other servers are not held up. A call that has to wait reports it (`capWait`), so the
 * timeline shows it waiting, then how long it waited. One CallCaps per page or process: the cap
 * holds over every run at once. Pure.
 */
import type { HostFunction, HostFunctions } from "../sandbox/types";
import { originalNames, type HostCallReport, type NameMap } from "./mcp-tools";

/** A call that waited for its server's cap: `waiting` while it waits, then `done` with how long. */
export interface CapWait {
  cap: number;
  state: "waiting" | "done";
  waitedMs?: number;
}

interface Gate {
  active: number;
  waiting: Array<() => void>;
}

export class CallCaps {
  private readonly gates = new Map<string, Gate>();

  /** `capOf(server)`: the cap for a server by its name; undefined means no cap. */
  constructor(
    private readonly capOf: (server: string) => number | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls of `server` in flight and waiting now. */
  stats(server: string): { active: number; waiting: number } {
    const gate = this.gates.get(server);
    return { active: gate?.active ?? 0, waiting: gate?.waiting.length ?? 0 };
  }

  /** The host functions with each server's cap applied; `report` hears about calls that waited. */
  wrap(host: HostFunctions, names: NameMap, report?: (callId: number, info: HostCallReport & { capWait: CapWait }) => void): HostFunctions {
    const out: HostFunctions = {};
    const whereOf = originalNames(names);
    for (const [namespace, functions] of Object.entries(host)) {
      const wrapped: Record<string, HostFunction> = {};
      for (const [fn, call] of Object.entries(functions)) {
        const { server, tool } = whereOf(namespace, fn);
        wrapped[fn] = async (args, signal, info) => {
          const cap = this.capOf(server);
          if (cap === undefined) return call(args, signal, info);
          const waitedMs = await this.acquire(server, cap, signal, () => report?.(info.callId, { server, tool, capWait: { cap, state: "waiting" } }));
          if (waitedMs !== undefined) report?.(info.callId, { server, tool, capWait: { cap, state: "done", waitedMs: Math.round(waitedMs) } });
          try {
            return await call(args, signal, info);
          } finally {
            this.release(server);
          }
        };
      }
      out[namespace] = wrapped;
    }
    return out;
  }

  /** Takes a slot; resolves with how long it waited, or undefined when a slot was free. */
  private async acquire(server: string, cap: number, signal: AbortSignal, onWait: () => void): Promise<number | undefined> {
    let gate = this.gates.get(server);
    if (!gate) this.gates.set(server, (gate = { active: 0, waiting: [] }));
    if (gate.active < cap) {
      gate.active += 1;
      return undefined;
    }
    const since = this.now();
    onWait();
    const waitingGate = gate;
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = waitingGate.waiting.indexOf(wake);
        if (at >= 0) waitingGate.waiting.splice(at, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error("The call was cancelled while it waited for its server's cap"));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      waitingGate.waiting.push(wake);
    });
    return this.now() - since;
  }

  /** Frees a slot: the next waiting call takes it over (the count stays), else the count drops. */
  private release(server: string): void {
    const gate = this.gates.get(server);
    if (!gate) return;
    const next = gate.waiting.shift();
    if (next) return next();
    gate.active -= 1;
    if (gate.active === 0) this.gates.delete(server);
  }
}
