/**
 * The predicates the page's first screen uses in place of the AI SDK's (lib/model/ui-parts.ts)
 * give the SDK's own answers, on every kind of part and every shape of last step.
 */
import * as ai from "ai";
import { describe, expect, it } from "vitest";
import { generateId, isToolUIPart, lastAssistantMessageIsCompleteWithToolCalls } from "@/lib/model/ui-parts";
import type { CodeModeUIMessage } from "@/lib/model/types";

type Part = CodeModeUIMessage["parts"][number];

const parts: Part[] = [
  { type: "step-start" },
  { type: "text", text: "done", state: "done" },
  { type: "text", text: "still coming", state: "streaming" },
  { type: "text", text: "no state" },
  { type: "reasoning", text: "thinking", state: "done" },
  { type: "file", mediaType: "image/png", url: "data:image/png;base64,AA==" },
  { type: "source-url", sourceId: "s", url: "https://example.com" },
  { type: "tool-execute_code", toolCallId: "a", state: "input-streaming", input: undefined },
  { type: "tool-execute_code", toolCallId: "b", state: "input-available", input: { code: "return 1" } },
  { type: "tool-execute_code", toolCallId: "c", state: "output-available", input: { code: "return 1" }, output: { ok: true, value: 1, logs: [] } },
  {
    type: "tool-execute_code",
    toolCallId: "d",
    state: "output-available",
    input: { code: "return 1" },
    output: { ok: true, value: 1, logs: [] },
    preliminary: true,
  },
  { type: "tool-execute_code", toolCallId: "e", state: "output-error", input: { code: "x" }, errorText: "bad" },
  {
    type: "tool-execute_code",
    toolCallId: "f",
    state: "output-available",
    input: { code: "1" },
    output: { ok: true, value: 1, logs: [] },
    providerExecuted: true,
  },
  { type: "tool-execute_code", toolCallId: "g", state: "input-available", input: { code: "1" }, providerExecuted: true },
  { type: "dynamic-tool", toolName: "lab.echo", toolCallId: "h", state: "input-available", input: {} },
  { type: "dynamic-tool", toolName: "lab.echo", toolCallId: "i", state: "output-available", input: {}, output: 1 },
] as Part[];

const message = (role: "user" | "assistant", ...content: Part[]): CodeModeUIMessage => ({ id: "m", role, parts: content });

describe("the AI SDK's UI-part predicates, restated for the first screen", () => {
  it("isToolUIPart answers as the SDK's does for every kind of part", () => {
    for (const part of parts) expect(isToolUIPart(part), JSON.stringify(part)).toBe(ai.isToolUIPart(part));
    expect(parts.filter(isToolUIPart)).toHaveLength(9);
  });

  it("lastAssistantMessageIsCompleteWithToolCalls answers as the SDK's does on every last step of one to three parts", () => {
    const steps: Part[][] = [[]];
    for (const a of parts) {
      steps.push([a]);
      for (const b of parts) {
        steps.push([a, b]);
        for (const c of parts.slice(7)) steps.push([a, b, c]);
      }
    }
    let complete = 0;
    for (const step of steps) {
      for (const messages of [
        [message("user", ...step)],
        [message("user"), message("assistant", ...step)],
        [message("assistant", { type: "tool-execute_code", toolCallId: "z", state: "input-available", input: {} } as Part, { type: "step-start" }, ...step)],
      ]) {
        const ours = lastAssistantMessageIsCompleteWithToolCalls({ messages });
        expect(ours, JSON.stringify(messages)).toBe(ai.lastAssistantMessageIsCompleteWithToolCalls({ messages }));
        if (ours) complete++;
      }
    }
    // The table holds both answers, many times over.
    expect(complete).toBeGreaterThan(100);
    expect(lastAssistantMessageIsCompleteWithToolCalls({ messages: [] })).toBe(false);
  });

  it("generateId makes ids as the SDK's does: 16 letters and digits, different every time", () => {
    const ids = Array.from({ length: 1_000 }, generateId);
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ai.generateId()).toMatch(/^[0-9A-Za-z]{16}$/);
  });
});
