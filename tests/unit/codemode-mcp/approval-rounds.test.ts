/**
 * Programs paused for an approval between requests (lib/codemode-mcp/approval-rounds.ts): the
 * run goes on between `step`s, each question is answered once, an abandoned run is denied and
 * stopped after its wait, and a request that gives up stops the run.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApprovalRounds } from "@/lib/codemode-mcp/approval-rounds";
import type { AskClient, ExecuteOutcome } from "@/lib/codemode-mcp/service";

const question = { server: "store", tool: "place_order", namespace: "store", name: "place_order", args: {} };
const done = (value: unknown): ExecuteOutcome => ({ ok: true, value, logs: [], calls: { total: 0, failed: 0, tools: {} }, wallMs: 0, runId: "r" });

/** A program that asks twice and returns both answers. */
async function twoAsks(ask: AskClient, signal: AbortSignal): Promise<ExecuteOutcome> {
  const first = await ask(question, signal);
  const second = await ask({ ...question, tool: "cancel_order" }, signal);
  return done([first, second]);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("approval rounds", () => {
  it("a run asks, waits for its answer across steps, asks again, and ends; each question is answered once", async () => {
    const rounds = new ApprovalRounds();
    const id = rounds.start(twoAsks);
    expect(await rounds.step(id)).toMatchObject({ kind: "ask", n: 1, question: { tool: "place_order" } });
    expect(rounds.answer(id, 1, true)).toBe(true);
    expect(rounds.answer(id, 1, false)).toBe(false);
    expect(await rounds.step(id)).toMatchObject({ kind: "ask", n: 2, question: { tool: "cancel_order" } });
    expect(rounds.answer(id, 3, true)).toBe(false);
    expect(rounds.answer(id, 2, false)).toBe(true);
    expect(await rounds.step(id)).toEqual({ kind: "done", outcome: done([true, false]) });
    expect(rounds.size).toBe(0);
    expect(await rounds.step(id)).toBeUndefined();
    expect(rounds.answer(id, 2, true)).toBe(false);
  });

  it("a run nobody comes back to is denied and stopped after its wait", async () => {
    vi.useFakeTimers();
    const rounds = new ApprovalRounds({ ttlMs: 1_000 });
    let stopped: unknown;
    let answered: boolean | undefined;
    const id = rounds.start(async (ask, signal) => {
      signal.addEventListener("abort", () => {
        stopped = signal.reason;
      });
      answered = await ask(question, signal);
      return done(answered);
    });
    await rounds.step(id);
    await vi.advanceTimersByTimeAsync(1_001);
    expect(answered).toBe(false);
    expect(String(stopped)).toMatch(/Nobody answered/);
    expect(rounds.size).toBe(0);
    expect(rounds.answer(id, 1, true)).toBe(false);
  });

  it("a request that gives up while the run works stops the run", async () => {
    const rounds = new ApprovalRounds();
    let stopped = false;
    const id = rounds.start(
      (_ask, signal) =>
        new Promise<ExecuteOutcome>((resolve) =>
          signal.addEventListener("abort", () => {
            stopped = true;
            resolve(done("stopped"));
          }),
        ),
    );
    const request = new AbortController();
    const step = rounds.step(id, request.signal);
    request.abort(new Error("client went away"));
    expect(await step).toEqual({ kind: "done", outcome: done("stopped") });
    expect(stopped).toBe(true);
  });
});
