import { describe, expect, it } from "vitest";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import { withApprovals } from "@/lib/host-calls/approvals";
import type { HostCallInfo, HostFunction, HostFunctions, RunEvent } from "@/lib/sandbox/types";
import { errorOf, nodeEngine, run, valueOf } from "./helpers";

const engine = nodeEngine();

// Short clocks; every wait below is well past them, so only a suspended clock lets a run through.
const LIMITS = { wallMs: 400, callTimeoutMs: 300, cpuMs: 500 };
const WAIT_MS = 900;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function suspendOf(call: HostCallInfo): () => () => void {
  if (!call.suspendClock) throw new Error("the sandbox gave no suspendClock");
  return call.suspendClock;
}

/** A host function that waits `ms`, with the clock suspended if `suspend` says so. */
function waiting(ms: number, suspend: boolean): HostFunction {
  return async (args, _signal, call) => {
    const resume = suspend ? suspendOf(call)() : undefined;
    await sleep(ms);
    resume?.();
    return args;
  };
}

function startEnd(events: RunEvent[], callId: number): { start: number; end: number } {
  const start = events.find((e) => e.type === "call-start" && e.callId === callId);
  const end = events.find((e) => e.type === "call-end" && e.callId === callId);
  if (!start || start.type === "log" || !end || end.type === "log") throw new Error(`no start/end for call ${callId}`);
  return { start: start.time, end: end.time };
}

describe("suspending the clock (engine in Node)", () => {
  it("lets a call wait longer than wallMs and callTimeoutMs while its clock is suspended", async () => {
    const host: HostFunctions = { person: { decide: waiting(WAIT_MS, true) } };
    const { result, events } = await run(engine, "return await person.decide('yes')", { host, limits: LIMITS });
    expect(valueOf(result)).toBe("yes");
    // Times stay real: the timeline shows the wait, only the deadlines skip it.
    const { start, end } = startEnd(events, 1);
    expect(end - start).toBeGreaterThanOrEqual(WAIT_MS - 10);
    expect(result.stats.wallMs).toBeGreaterThanOrEqual(WAIT_MS - 10);
  });

  it("without suspending, the same wait times out", async () => {
    const host: HostFunctions = { person: { decide: waiting(WAIT_MS, false) } };
    const { result } = await run(engine, "return await person.decide('yes')", { host, limits: LIMITS });
    expect(errorOf(result, "timeout").clock).toBe("call");
    const wallOnly = await run(engine, "return await person.decide('yes')", { host, limits: { ...LIMITS, callTimeoutMs: 5_000 } });
    expect(errorOf(wallOnly.result, "timeout").clock).toBe("wall");
  });

  it("counts suspensions: one call resuming (even twice) keeps the clock stopped for another", async () => {
    const host: HostFunctions = {
      person: {
        decide: waiting(WAIT_MS, true),
        glance: async (_args, _signal, call) => {
          const resume = suspendOf(call)();
          await sleep(20);
          resume();
          resume();
          return "glanced";
        },
      },
    };
    const code = "return await Promise.all([person.decide('long'), person.glance()])";
    const { result } = await run(engine, code, { host, limits: LIMITS });
    expect(valueOf(result)).toEqual(["long", "glanced"]);
  });

  it("nested suspensions of one call: the clock runs again only after the last resume", async () => {
    const host: HostFunctions = {
      person: {
        decide: async (_args, _signal, call) => {
          const outer = suspendOf(call)();
          const inner = suspendOf(call)();
          inner();
          await sleep(WAIT_MS);
          outer();
          return "ok";
        },
      },
    };
    expect(valueOf((await run(engine, "return await person.decide()", { host, limits: LIMITS })).result)).toBe("ok");
  });

  it("a call's timeout counts only the time it was not suspended, across a pause", async () => {
    // 200 ms, a pause, 200 ms more: 400 ms of call time against a 300 ms timeout.
    const host: HostFunctions = {
      person: {
        decide: async (_args, _signal, call) => {
          await sleep(200);
          const resume = suspendOf(call)();
          await sleep(400);
          resume();
          await sleep(200);
          return "late";
        },
      },
    };
    const { result } = await run(engine, "return await person.decide()", { host, limits: { ...LIMITS, wallMs: 5_000 } });
    expect(errorOf(result, "timeout").clock).toBe("call");
  });

  it("a call that ends without resuming gives the clock back; a suspend after the end does nothing", async () => {
    let late: (() => () => void) | undefined;
    const host: HostFunctions = {
      person: {
        forget: (_args, _signal, call) => {
          late = suspendOf(call);
          late();
          return Promise.resolve("done");
        },
        after: () => {
          late?.();
          return Promise.resolve();
        },
      },
    };
    const code = `await person.forget();\nawait person.after();\nawait new Promise((r) => setTimeout(r, ${WAIT_MS}));\nreturn "slept"`;
    const { result } = await run(engine, code, { host, limits: LIMITS });
    expect(errorOf(result, "timeout").clock).toBe("wall");
  });

  it("the approval gate suspends the clock while the person decides (runInNode)", async () => {
    const host = withApprovals(
      { db: { wipe: (args) => Promise.resolve({ wiped: args }) } },
      { needsApproval: () => true, request: () => sleep(WAIT_MS).then(() => "approve" as const) },
    );
    const result = await runInNode({ code: "return await db.wipe(7)", limits: LIMITS }, host);
    expect(valueOf(result)).toEqual({ wiped: 7 });
  });
});
