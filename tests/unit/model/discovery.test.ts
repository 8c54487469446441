/**
 * Discovery by default on a large catalog, in the headless runner (what `npm run agent` and
 * `npm run eval` run): past the budget the model gets the namespaces and search_tools, and the
 * request inspector says which form the request used and why; a pinned form holds.
 */
import { describe, expect, it } from "vitest";
import { createToolCatalog } from "@/lib/codemode";
import { createDemoModel } from "@/lib/model/demo/demo-model";
import { runHeadlessAgent } from "@/lib/model/node/headless-agent";
import { createToolWorld } from "@/lib/model/tool-world";
import type { InspectorStep, ResolvedModel } from "@/lib/model/types";
import { NO_RUN_STATS } from "@/lib/sandbox/errors";
import { syntheticCatalog } from "../../fixtures/schemas/synthetic-catalog";

const demo: ResolvedModel = { model: createDemoModel({ chunkDelayMs: 0 }), label: "the demo model", secrets: [], keyHint: "" };
const world = createToolWorld(createToolCatalog(syntheticCatalog(300, 12)), {
  runCode: () => Promise.resolve({ ok: true, value: null, logs: [], stats: NO_RUN_STATS }),
});

async function firstRequest(options: Partial<Parameters<typeof runHeadlessAgent>[0]> = {}): Promise<InspectorStep["request"]> {
  const steps: InspectorStep[] = [];
  await runHeadlessAgent({ world, model: demo, prompt: "Which orders shipped late?", policy: { maxSteps: 2 }, onInspector: (s) => steps.push(s), ...options });
  const request = steps[0]?.request;
  if (!request) throw new Error("no model call was made");
  return request;
}

describe("discovery in the headless runner", () => {
  it("a catalog of 300 tools over 12 servers goes as tool search by default, and the inspector says why", async () => {
    const request = await firstRequest();
    expect(request.form).toMatchObject({
      mode: "search",
      why: expect.stringMatching(/^Tool search: the declarations take about .* over the budget of 4\u00a0000\.$/) as unknown,
    });
    expect(request.system).not.toContain("declare namespace");
    expect(request.tools.map((t) => t.name).sort()).toEqual(["execute_code", "search_tools"]);
  });

  it("a budget it fits, or a pinned form, sends every declaration", async () => {
    expect((await firstRequest({ declarationsBudgetTokens: 1_000_000 })).form).toMatchObject({ mode: "declarations" });
    const pinned = await firstRequest({ discovery: "declarations" });
    expect(pinned.form).toMatchObject({ mode: "declarations", why: expect.stringMatching(/^Every declaration is pinned on/) as unknown });
    expect(pinned.system).toContain("declare namespace");
    expect(pinned.tools.map((t) => t.name)).toEqual(["execute_code"]);
  });

  it("classic mode offers every tool and carries no form", async () => {
    const request = await firstRequest({ toolMode: "classic" });
    expect(request.form).toBeUndefined();
    expect(request.tools).toHaveLength(300);
  });
});
