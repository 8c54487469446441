import { describe, expect, it } from "vitest";
import { capSession, describeSession, parseSession, SESSION_VERSION, type SessionSnapshot } from "@/lib/model/session-snapshot";
import type { RunRecord } from "@/lib/timeline/run-record";

const run = (id: string, size = 10): RunRecord => ({
  format: "code-mode-playground/run",
  version: 1,
  id,
  startedAt: "2026-11-24T00:00:00.000Z",
  events: [{ type: "log", time: 0, level: "log", text: "x".repeat(size) }],
});
const snapshot = (runs: RunRecord[]): SessionSnapshot => ({
  version: SESSION_VERSION,
  savedAt: "now",
  messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }],
  runs,
  codeHistory: [{ toolCallId: "t1", code: "return 1", at: 1 }],
});

describe("session snapshot", () => {
  it("keeps everything under the cap, and drops the oldest runs (the end of the list) past it", () => {
    const s = snapshot([run("new", 1000), run("mid", 1000), run("old", 1000)]);
    expect(capSession(s, 1_000_000)).toEqual({ snapshot: s, droppedRuns: 0 });
    const capped = capSession(s, JSON.stringify(s).length - 500);
    expect(capped.droppedRuns).toBe(1);
    expect(capped.snapshot.runs.map((r) => r.id)).toEqual(["new", "mid"]);
    expect(capped.snapshot.messages).toEqual(s.messages);
  });

  it("reads back what it wrote, and leaves out what does not check out", () => {
    const s = snapshot([run("a")]);
    expect(parseSession(JSON.parse(JSON.stringify(s)))).toEqual({ ...s, runSources: {} });
    // Where each run came from survives; a source that is not one, or of a run not kept, does not.
    const sourced = { ...s, runSources: { a: "eval", gone: "chat" } };
    expect(parseSession(JSON.parse(JSON.stringify(sourced)))?.runSources).toEqual({ a: "eval" });
    expect(parseSession({ ...s, runSources: { a: "hacker" } })?.runSources).toEqual({});
    const damaged = { ...s, runs: [run("ok"), { id: "broken" }], messages: [{ id: 3 }, ...s.messages], codeHistory: [{ code: 1 }, ...s.codeHistory] };
    expect(parseSession(damaged)).toMatchObject({ runs: [{ id: "ok" }], messages: s.messages, codeHistory: s.codeHistory });
    expect(parseSession({ ...s, version: 99 })).toBeUndefined();
    expect(parseSession("nope")).toBeUndefined();
  });

  it("says what clearing removes", () => {
    expect(describeSession({ messages: 1, runs: 2, codeHistory: 1 })).toBe("the conversation (1 message), 2 runs and 1 code history entry");
  });
});
