/** One tool world: the catalog every host builds, and the handlers built once for both tool modes. */
import { describe, expect, it } from "vitest";
import { createToolCatalog } from "@/lib/codemode";
import { createToolWorld } from "@/lib/model/tool-world";
import { handlersForMode } from "@/lib/model/tool-handler";
import type { RunResult } from "@/lib/sandbox/types";
import { NO_RUN_STATS } from "@/lib/sandbox/errors";

const servers = [
  {
    name: "shop",
    tools: [
      { name: "quote", description: "Quotes a parcel.", inputSchema: { type: "object", properties: { kg: { type: "number" } }, required: ["kg"] } },
      {
        name: "refund",
        description: "Refunds an order.",
        inputSchema: { type: "object", properties: { id: { type: "string" } } },
        annotations: { destructiveHint: true },
      },
    ],
  },
];
const ok = (value: unknown): RunResult => ({ ok: true, value, logs: [], stats: NO_RUN_STATS });

describe("createToolCatalog", () => {
  it("builds the declarations, a prompt per mode (once each), the search and the classic tools of the same servers", () => {
    const catalog = createToolCatalog(servers);
    expect(catalog.declarations.text).toContain("declare namespace shop");
    expect(catalog.systemPrompt()).toContain("quote(");
    expect(catalog.systemPrompt()).toBe(catalog.systemPrompt("declarations"));
    expect(catalog.systemPrompt("search")).not.toContain("declare namespace");
    expect(catalog.search.search("refund", 3).text).toContain("refund");
    expect(catalog.classicTools.map((t) => t.name)).toEqual(["shop__quote", "shop__refund"]);
    expect(catalog.classicTools).toBe(catalog.classicTools);
  });
});

describe("createToolWorld", () => {
  it("runs the model's programs through runCode and classic rounds through runClassic; code mode drops the classic handler", async () => {
    const ran: string[] = [];
    const world = createToolWorld(createToolCatalog(servers), {
      runCode: (code) => (ran.push(`code:${code}`), Promise.resolve(ok(1))),
      runClassic: (code) => (ran.push(`classic:${code.includes(`shop["quote"]`) ? "quote" : code}`), Promise.resolve(ok([{ ok: true, value: { price: 4 } }]))),
    });
    await world.handlers.runCode("return 1", "t1");
    await world.handlers.callTools([{ toolCallId: "c1", toolName: "shop__quote", input: { kg: 2 } }]);
    expect(ran).toEqual(["code:return 1", "classic:quote"]);
    expect(world.handlers.searchTools("quote", 2)).toContain("quote");
    expect(handlersForMode("code", world.handlers).callTools).toBeUndefined();
    expect(handlersForMode("classic", world.handlers).callTools).toBe(world.handlers.callTools);
  });
});
