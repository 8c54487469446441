import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SERVERS_INFO } from "@/lib/demo-servers/catalog";
import type { PromptMode } from "@/lib/codemode";
import { runAgentLoop, type AgentLoopOptions } from "@/lib/model/agent-loop";
import { directModelStep } from "@/lib/model/chat-stream";
import { runHeadlessAgent } from "@/lib/model/node/headless-agent";
import { createDemoModel, promptText } from "@/lib/model/demo/demo-model";
import { ON_TIME_TO_JAPAN_PROMPT } from "@/lib/model/demo/scripts-large-results";
import { DEMO_SCRIPTS } from "@/lib/model/demo/scripts";
import { CATALOG_SCRIPTS } from "@/lib/model/demo/scripts-catalog";
import { createToolCatalog } from "@/lib/codemode";
import { loadCatalogServers } from "@/lib/evals/node/catalog-servers";
import type { ResolvedModel } from "@/lib/model/types";
import type { CodeModeUIMessage } from "@/lib/model/types";
import { startDemoWorld, type DemoWorld } from "../../fixtures/model/demo-world";
import { compileErrors } from "../codemode/helpers";

let world: DemoWorld;
beforeAll(async () => {
  world = await startDemoWorld();
});
afterAll(() => world.close());

const demo: ResolvedModel = { model: createDemoModel({ chunkDelayMs: 0 }), label: "the demo model", secrets: [], keyHint: "" };
/** Leaves of a value as text: strings of 4+ characters (carrier names, headlines, order ids) and integers. */
function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return value.length >= 4 ? [value] : [];
  if (typeof value === "number") return Number.isInteger(value) ? [String(value)] : [];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}

const user = (text: string): CodeModeUIMessage => ({ id: `u-${text.length}`, role: "user", parts: [{ type: "text", text }] });

describe("the demo model", () => {
  it("has a script for every demo example prompt, in catalog order, and one more the large-results suite asks", () => {
    const prompts = DEMO_SERVERS_INFO.flatMap((s) => s.examplePrompts);
    expect(DEMO_SCRIPTS.map((s) => s.prompt).filter((p) => p !== ON_TIME_TO_JAPAN_PROMPT)).toEqual(prompts);
    expect(DEMO_SCRIPTS.map((s) => s.prompt)).toContain(ON_TIME_TO_JAPAN_PROMPT);
  });

  it("every script type-checks against the demo servers' declarations as the editor checks it: no red squiggle in a program the model wrote", () => {
    const api = `${world.world.catalog.declarations.text}\ndeclare const console: { log(...a: unknown[]): void };`;
    const errors = DEMO_SCRIPTS.flatMap((script) =>
      compileErrors({ "api.d.ts": api, "program.ts": `async function main() {\n${script.code}\n}` }, { strict: false }).map((e) => `${script.prompt} ${e}`),
    );
    expect(errors).toEqual([]);
    // The large catalog's scripts, against the captured servers' declarations.
    const catalog = createToolCatalog(loadCatalogServers().map((s) => ({ name: s.name, tools: s.tools })));
    const catalogApi = `${catalog.declarations.text}\ndeclare const console: { log(...a: unknown[]): void };`;
    const catalogErrors = CATALOG_SCRIPTS.flatMap((script) =>
      compileErrors({ "api.d.ts": catalogApi, "program.ts": `async function main() {\n${script.code}\n}` }, { strict: false }).map(
        (e) => `${script.prompt} ${e}`,
      ),
    );
    expect(catalogErrors).toEqual([]);
  });

  for (const script of DEMO_SCRIPTS) {
    it(`runs green: ${script.prompt}`, async () => {
      const before = world.runs.length;
      // The headless runner: what scripts/agent.ts runs.
      const result = await runHeadlessAgent({ world: world.world, model: demo, prompt: script.prompt, policy: { maxSteps: 5 } });
      const run = world.runs[before];
      expect(run?.result, JSON.stringify(run?.result)).toMatchObject({ ok: true });
      expect(result.stop).toEqual({ kind: "done" });
      // The final answer is the summary of the value the real run returned, word for word.
      const last = result.messages.at(-1)?.parts.findLast((p) => p.type === "text");
      const answer = last?.type === "text" ? last.text : "";
      const value = run?.result.ok ? run.result.value : undefined;
      expect(answer).toBe(script.summarise(value));
      // And that summary quotes the run: at least one string the program returned appears in it.
      expect(
        stringsIn(value).some((s) => answer.includes(s)),
        answer,
      ).toBe(true);
    });
  }
});

describe("the demo model outside its scripts", () => {
  const loop = (
    text: string,
    { mode = "declarations", instructions = world.systemPrompt(), ...overrides }: Partial<AgentLoopOptions> & { mode?: PromptMode; instructions?: string } = {},
  ) =>
    runAgentLoop({
      modelStep: directModelStep({ model: demo, instructions, mode }),
      messages: [user(text)],
      handlers: world.handlers,
      policy: { maxSteps: 5, returnDirectly: false },
      ...overrides,
    });
  const answer = (result: Awaited<ReturnType<typeof loop>>) =>
    result.messages
      .at(-1)
      ?.parts.flatMap((p) => (p.type === "text" ? [p.text] : []))
      .join("") ?? "";

  it("explains how to connect a real model when the prompt is not one of its examples", async () => {
    const before = world.runs.length;
    const result = await loop("What is the weather in Paris?");
    expect(result.stop).toEqual({ kind: "done" });
    expect(world.runs.length).toBe(before);
    const text = answer(result);
    for (const word of ["OpenAI", "Anthropic", "Google", "Gateway", "Ollama", "OPENAI_API_KEY", "base URL"]) expect(text).toContain(word);
    // It streamed in several chunks and reported (estimated) usage.
    expect(result.steps[0]).toMatchObject({ provider: "demo", modelId: "code-mode-demo", usage: { inputTokens: expect.any(Number) as number } });
  });

  it("matches a retyped prompt, and says when the example's server is not connected", async () => {
    const script = DEMO_SCRIPTS[0]!;
    const retyped = `  ${script.prompt.toUpperCase().replace("?", "")} `;
    const result = await loop(retyped, { instructions: "declare namespace news {}" });
    expect(answer(result)).toContain("needs the **shipping** demo server");
  });

  it("searches first in search mode, then runs its program", async () => {
    const script = DEMO_SCRIPTS[1]!;
    const searches = world.searches.length;
    const result = await loop(script.prompt, { mode: "search", instructions: world.systemPrompt("search") });
    expect(world.searches.slice(searches)).toEqual([{ query: script.searchQuery, limit: 8 }]);
    expect(
      result.messages
        .at(-1)
        ?.parts.filter((p) => p.type.startsWith("tool-"))
        .map((p) => p.type),
    ).toEqual(["tool-search_tools", "tool-execute_code"]);
    expect(answer(result)).toContain("all in");
  });

  it("reports a skipped run instead of inventing an answer", async () => {
    const result = await loop(DEMO_SCRIPTS[6]!.prompt, {
      stepMode: true,
      handlers: { ...world.handlers, awaitApproval: () => Promise.resolve({ action: "skip", message: "No orders today." }) },
    });
    expect(answer(result)).toContain("You chose not to run the program");
    expect(answer(result)).toContain("No orders today.");
  });
});

describe("the demo model's token count", () => {
  it("counts the text a provider tokenises: the system prompt as written, tool calls and results as JSON, not the prompt's own JSON escaping", () => {
    const text = promptText([
      { role: "system", content: 'Call "a"\nthen "b".' },
      { role: "user", content: [{ type: "text", text: "Hi" }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "1", toolName: "execute_code", input: { code: 'return "x";' } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "1", toolName: "execute_code", output: { type: "json", value: { ok: true, value: "x" } } }],
      },
    ]);
    expect(text).toBe('system\nCall "a"\nthen "b".\nuser\nHi\nassistant\nexecute_code {"code":"return \\"x\\";"}\ntool\nexecute_code {"ok":true,"value":"x"}');
  });
});
