import { describe, expect, it } from "vitest";
import { answerToolCall, type ToolHandlers } from "@/lib/model/tool-handler";
import { describeOutput, parseSearchToolsInput, runResultToOutput } from "@/lib/model/tool-output";
import type { RunResult } from "@/lib/sandbox/types";

const stats = { wallMs: 1, hostCalls: 0, peakInFlight: 0 };
const ok = (value: unknown): RunResult => ({
  ok: true,
  value,
  logs: [
    { level: "log", text: "hi", time: 0 },
    { level: "warn", text: "careful", time: 1 },
  ],
  stats,
});

function handlers(overrides: Partial<ToolHandlers> = {}): ToolHandlers & { ran: string[] } {
  const ran: string[] = [];
  return {
    ran,
    runCode: (code) => (ran.push(code), Promise.resolve(ok(42))),
    searchTools: (query, limit) => `found ${query} x${limit}`,
    ...overrides,
  };
}

describe("tool outputs", () => {
  it("shapes a run for the model: value and log lines, or the typed error", () => {
    expect(runResultToOutput(ok({ a: 1 }))).toEqual({ ok: true, value: { a: 1 }, logs: ["hi", "[warn] careful"] });
    const failed: RunResult = { ok: false, error: { kind: "syntax", message: "Unexpected token", line: 2, column: 5 }, logs: [], stats };
    expect(runResultToOutput(failed)).toEqual({ ok: false, error: { kind: "syntax", message: "Unexpected token", line: 2, column: 5 }, logs: [] });
    expect(describeOutput(runResultToOutput(failed))).toBe("syntax error (line 2:5): Unexpected token");
  });

  it("clamps search limits", () => {
    expect(parseSearchToolsInput({ query: "x" })).toEqual({ query: "x", limit: 5 });
    expect(parseSearchToolsInput({ query: "x", limit: 99 })).toEqual({ query: "x", limit: 20 });
    expect(parseSearchToolsInput({ query: " " })).toHaveProperty("error");
  });
});

describe("answerToolCall", () => {
  it("runs execute_code and answers with the output", async () => {
    const h = handlers();
    expect(await answerToolCall({ toolCallId: "c", toolName: "execute_code", input: { code: "return 42" } }, h)).toEqual({
      state: "output-available",
      output: { ok: true, value: 42, logs: ["hi", "[warn] careful"] },
    });
    expect(h.ran).toEqual(["return 42"]);
  });

  it("answers unusable input, unknown tools and a throwing sandbox without throwing", async () => {
    const h = handlers({ runCode: () => Promise.reject(new Error("worker died")) });
    expect(await answerToolCall({ toolCallId: "c", toolName: "execute_code", input: { source: "x" } }, h)).toMatchObject({
      state: "output-error",
      errorText: expect.stringContaining('"code"') as string,
    });
    expect(await answerToolCall({ toolCallId: "c", toolName: "shipping.get_quote", input: {} }, h)).toMatchObject({
      state: "output-error",
      errorText: expect.stringContaining("no tool") as string,
    });
    expect(await answerToolCall({ toolCallId: "c", toolName: "execute_code", input: { code: "1" } }, h)).toEqual({
      state: "output-available",
      output: { ok: false, error: { kind: "runtime", message: "The sandbox failed: worker died" }, logs: [] },
    });
  });

  it("asks for approval only in step mode, and reports skips and edits", async () => {
    const asked: string[] = [];
    const skip = handlers({ awaitApproval: (code) => (asked.push(code), Promise.resolve({ action: "skip", message: "" })) });
    expect(await answerToolCall({ toolCallId: "c", toolName: "execute_code", input: { code: "a" } }, skip)).toMatchObject({
      state: "output-available",
      output: { ok: true },
    });
    expect(asked).toEqual([]);
    expect(await answerToolCall({ toolCallId: "c", toolName: "execute_code", input: { code: "a" } }, skip, { stepMode: true })).toEqual({
      state: "output-available",
      output: { ok: false, skipped: true, message: "The person chose not to run this code." },
    });
    expect(skip.ran).toEqual(["a"]);
    const edit = handlers({ awaitApproval: () => Promise.resolve({ action: "run", code: "b" }) });
    expect(await answerToolCall({ toolCallId: "c", toolName: "execute_code", input: { code: "a" } }, edit, { stepMode: true })).toMatchObject({
      output: { ok: true, editedCode: "b" },
    });
    expect(edit.ran).toEqual(["b"]);
  });

  it("answers search_tools with the declarations", async () => {
    expect(await answerToolCall({ toolCallId: "s", toolName: "search_tools", input: { query: "quote", limit: 3 } }, handlers())).toEqual({
      state: "output-available",
      output: { declarations: "found quote x3" },
    });
  });
});
