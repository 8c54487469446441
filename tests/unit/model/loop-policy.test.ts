import { describe, expect, it } from "vitest";
import { cancelPendingToolCalls, dropFailedStep, lastUserMessage, STOPPED_TOOL_CALL } from "@/lib/model/conversation";
import { decideNext, stepsIn, stopNotice } from "@/lib/model/loop-policy";
import type { CodeModeUIMessage } from "@/lib/model/types";

type Part = CodeModeUIMessage["parts"][number];
const user: CodeModeUIMessage = { id: "u", role: "user", parts: [{ type: "text", text: "hi" }] };
const assistant = (...parts: Part[]): CodeModeUIMessage => ({ id: "a", role: "assistant", parts });
const step: Part = { type: "step-start" };
const text = (t: string): Part => ({ type: "text", text: t, state: "done" });
const call = (id: string, state: "input-available" | "output-available" | "output-error", ok = true): Part =>
  state === "output-available"
    ? {
        type: "tool-execute_code",
        toolCallId: id,
        state,
        input: { code: "return 1" },
        output: ok ? { ok: true, value: 1, logs: [] } : { ok: false, error: { kind: "runtime", message: "x" }, logs: [] },
      }
    : state === "output-error"
      ? { type: "tool-execute_code", toolCallId: id, state, input: undefined, errorText: "bad json" }
      : { type: "tool-execute_code", toolCallId: id, state, input: { code: "return 1" } };
const policy = { maxSteps: 3, returnDirectly: false };

describe("decideNext", () => {
  it("waits for a reply, and is done when the model answered without tools", () => {
    expect(decideNext([user], policy)).toEqual({ kind: "wait" });
    expect(decideNext([user, assistant(step, text("Hello"))], policy)).toEqual({ kind: "done" });
  });

  it("waits while a tool call has no result, continues once all have one (errors included)", () => {
    expect(decideNext([user, assistant(step, call("c1", "output-available"), call("c2", "input-available"))], policy)).toEqual({ kind: "wait" });
    expect(decideNext([user, assistant(step, call("c1", "output-available"), call("c2", "output-error"))], policy)).toEqual({ kind: "continue" });
  });

  it("looks only at the last step", () => {
    expect(decideNext([user, assistant(step, call("c1", "output-available"), step, text("Done"))], policy)).toEqual({ kind: "done" });
  });

  it("stops at max steps", () => {
    const three = assistant(step, call("c1", "output-available"), step, call("c2", "output-available"), step, call("c3", "output-available"));
    expect(stepsIn(three)).toBe(3);
    expect(decideNext([user, three], policy)).toEqual({ kind: "max-steps", steps: 3 });
    expect(decideNext([user, three], { ...policy, maxSteps: 4 })).toEqual({ kind: "continue" });
    expect(stopNotice({ kind: "max-steps", steps: 3 })).toMatch(/^Stopped after 3 model steps/);
  });

  it("returns directly only when every program in the step succeeded", () => {
    const direct = { ...policy, returnDirectly: true };
    expect(decideNext([user, assistant(step, call("c1", "output-available"))], direct)).toEqual({ kind: "returned-directly", toolCallIds: ["c1"] });
    expect(decideNext([user, assistant(step, call("c1", "output-available", false))], direct)).toEqual({ kind: "continue" });
    expect(decideNext([user, assistant(step, call("c1", "output-error"))], direct)).toEqual({ kind: "continue" });
  });
});

describe("conversation edits", () => {
  it("closes unanswered tool calls so the history stays valid", () => {
    const [, closed] = cancelPendingToolCalls([user, assistant(step, call("c1", "output-available"), call("c2", "input-available"))]);
    expect(closed?.parts.slice(1).map((p) => ("state" in p ? p.state : p.type))).toEqual(["output-available", "output-error"]);
    expect(closed?.parts[2]).toMatchObject({ errorText: STOPPED_TOOL_CALL, input: { code: "return 1" } });
    const untouched = [user, assistant(step, text("x"))];
    expect(cancelPendingToolCalls(untouched)).toEqual(untouched);
  });

  it("drops the failed trailing step before a retry, keeping completed steps", () => {
    const withFailed = assistant(step, call("c1", "output-available"), step, text("partial ans"));
    expect(dropFailedStep([user, withFailed])).toEqual([user, assistant(step, call("c1", "output-available"))]);
    // A message with nothing but the failed step goes entirely.
    expect(dropFailedStep([user, assistant(step)])).toEqual([user]);
    expect(dropFailedStep([user, assistant()])).toEqual([user]);
    // A step with tool calls is not a failed step.
    const pending = [user, assistant(step, call("c1", "output-available"))];
    expect(dropFailedStep(pending)).toEqual(pending);
    expect(dropFailedStep([user])).toEqual([user]);
  });

  it("finds the last user message", () => {
    expect(lastUserMessage([user, assistant(step, text("x"))])).toEqual({ message: user, text: "hi" });
    expect(lastUserMessage([])).toBeUndefined();
  });
});
