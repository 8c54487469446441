/** Compare lanes over the one loop, in Node: the demo model, the demo servers, the real sandbox. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLASSIC_SYSTEM_PROMPT } from "@/lib/codemode";
import { directModelStep } from "@/lib/model/chat-stream";
import { ratiosTo, runCompare, toolFigures, type LaneResult, type LaneRunner } from "@/lib/model/lanes";
import { handlersForMode } from "@/lib/model/tool-handler";
import { createDemoModel } from "@/lib/model/demo/demo-model";
import { DEMO_SCRIPTS } from "@/lib/model/demo/scripts";
import type { ResolvedModel } from "@/lib/model/types";
import { startDemoWorld, type DemoWorld } from "../../fixtures/model/demo-world";

let world: DemoWorld;
beforeAll(async () => {
  world = await startDemoWorld(["shipping"]);
});
afterAll(() => world.close());

const demo: ResolvedModel = { model: createDemoModel({ chunkDelayMs: 0 }), label: "the demo model", secrets: [], keyHint: "" };

function lanes(): LaneRunner[] {
  let hostCalls = 0;
  return [
    {
      spec: { id: "1", toolMode: "code", label: "code" },
      modelStep: directModelStep({ model: demo, instructions: world.systemPrompt(), mode: "declarations" }),
      handlers: {
        runCode: async (code, id) => {
          const result = await world.handlers.runCode(code, id);
          hostCalls += result.stats.hostCalls;
          return result;
        },
        searchTools: world.handlers.searchTools,
      },
      hostCalls: () => hostCalls,
    },
    {
      spec: { id: "2", toolMode: "classic", label: "classic" },
      modelStep: directModelStep({
        model: demo,
        instructions: CLASSIC_SYSTEM_PROMPT,
        mode: "declarations",
        toolMode: "classic",
        classicTools: world.world.catalog.classicTools,
      }),
      handlers: world.world.handlers,
    },
  ];
}

describe("compare", () => {
  it("runs each lane as its own conversation and reports requests, tokens, tool calls and the answer, with ratios to lane 1", async () => {
    const seen: LaneResult[][] = [];
    const results = await runCompare(DEMO_SCRIPTS[0]!.prompt, lanes(), { policy: { maxSteps: 10, returnDirectly: false }, onChange: (r) => seen.push(r) });
    const [code, classic] = results;
    expect(code).toMatchObject({ status: "done", requests: 2, errors: 0, estimatedTokens: true });
    expect(classic).toMatchObject({ status: "done", requests: 3, errors: 0 });
    // The same MCP calls either way: 1 list_carriers + 5 quotes + 5 estimates.
    expect(code?.toolCalls).toBe(11);
    expect(classic?.toolCalls).toBe(11);
    expect(code?.answer).toContain("SwiftAir Express");
    expect(classic?.answer).toBe(code?.answer);
    expect(code!.inputTokens).toBeGreaterThan(0);
    expect(ratiosTo(results, "requests")).toEqual([1, 1.5]);
    // Progress was reported while the lanes ran: lane 2 waited until lane 1 was done.
    expect(seen[0]?.map((r) => r.status)).toEqual(["waiting", "waiting"]);
    expect(seen.some((r) => r[0]?.status === "done" && r[1]?.status === "running")).toBe(true);
  });

  it("a stopped compare keeps the finished lanes and marks the rest", async () => {
    const aborter = new AbortController();
    const results = await runCompare(DEMO_SCRIPTS[0]!.prompt, lanes(), {
      policy: { maxSteps: 10, returnDirectly: false },
      abortSignal: aborter.signal,
      onChange: (r) => {
        if (r[0]?.status === "done") aborter.abort();
      },
    });
    expect(results.map((r) => r.status)).toEqual(["done", "stopped"]);
  });

  it("counts classic tool calls and failed calls from the conversation", () => {
    expect(
      toolFigures([
        {
          id: "a",
          role: "assistant",
          parts: [
            { type: "tool-shipping__get_quote", toolCallId: "1", state: "output-available", input: {}, output: { price: 1 } },
            { type: "tool-shipping__get_quote", toolCallId: "2", state: "output-error", input: {}, errorText: "no" },
          ] as never,
        },
      ]),
    ).toEqual({ toolCalls: 2, errors: 1 });
  });
});

describe("handlersForMode", () => {
  it("code mode drops the classic handlers; classic keeps callTools; classic with tool search searches classic tools", () => {
    const searchClassicTools = () => ({ text: "loaded", tools: ["a__b"] });
    const handlers = {
      runCode: () => Promise.reject(new Error("unused")),
      searchTools: () => "declarations",
      searchClassicTools,
      callTools: () => Promise.resolve([]),
    };
    expect(Object.keys(handlersForMode("code", handlers)).sort()).toEqual(["runCode", "searchTools"]);
    expect(handlersForMode("code", handlers).searchTools("q", 1)).toBe("declarations");
    expect(Object.keys(handlersForMode("classic", handlers)).sort()).toEqual(["callTools", "runCode", "searchTools"]);
    const search = handlersForMode("classic-search", handlers);
    expect(Object.keys(search).sort()).toEqual(["callTools", "runCode", "searchTools"]);
    expect(search.searchTools).toBe(searchClassicTools);
  });
});
