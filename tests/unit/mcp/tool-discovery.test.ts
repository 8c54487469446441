/** Discovery while a program runs: tools.search and tools.describe on the real QuickJS engine, over the large catalog and the demo servers. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolCatalog, resolveNames } from "@/lib/codemode";
import { withToolDiscovery } from "@/lib/mcp/tool-discovery";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import { largeCatalog } from "../../fixtures/schemas/large-catalog";
import { startDemoWorld, type DemoWorld } from "../../fixtures/model/demo-world";
import { FAST, valueOf } from "../timeline/helpers";

const catalog = createToolCatalog(largeCatalog());
const host = withToolDiscovery({}, catalog);
const run = async (code: string) => runInNode({ code, limits: FAST }, host);

describe("tools.search and tools.describe", () => {
  it("search finds functions across 23 servers by what they do, with their declarations; describe gives one", async () => {
    const found = valueOf(await run(`return await tools.search("create a pull request")`)) as Array<{ name: string; server: string; declaration: string }>;
    expect(found.length).toBe(5);
    expect(found.map((f) => f.name)).toContain("github.create_pull_request");
    const pr = found.find((f) => f.name === "github.create_pull_request")!;
    expect(pr.server).toBe("github");
    expect(pr.declaration).toMatch(/^declare namespace github\{/);
    expect(pr.declaration).toContain("function create_pull_request(");
    const one = valueOf(await run(`return await tools.describe("github.create_pull_request")`));
    expect(one).toEqual({ name: "github.create_pull_request", server: "github", tool: "create_pull_request", declaration: pr.declaration });
    const many = valueOf(await run(`return (await tools.search({ query: "list", limit: 12 })).length`));
    expect(many).toBe(12);
  });

  it("bad input is an error the program can read, saying how to call it", async () => {
    const messages = valueOf(
      await run(`
        const tries = [() => tools.search(42), () => tools.search({ query: "x", limit: 99 }), () => tools.describe("github.nope"), () => tools.describe({})];
        const out = [];
        for (const t of tries) { try { await t(); out.push("no error"); } catch (e) { out.push(e.message); } }
        return out;`),
    );
    expect(messages).toEqual([
      'tools.search takes a query: tools.search("orders") or tools.search({ query: "orders", limit: 10 })',
      "tools.search: limit is a whole number from 1 to 20",
      'There is no function "github.nope". tools.search(query) finds functions by what they do.',
      'tools.describe takes a function\'s name: tools.describe("shipping.get_quote")',
    ]);
  });

  it("the name is reserved: a server named tools gets another namespace", () => {
    const names = resolveNames([{ name: "tools", tools: [{ name: "list", inputSchema: { type: "object" } }] }]);
    expect(names.servers[0]).not.toBe("tools");
    expect(names.servers[0]).toMatch(/^tools/);
  });
});

describe("in the headless runner's world (the demo servers)", () => {
  let world: DemoWorld;
  beforeAll(async () => {
    world = await startDemoWorld(["shipping"]);
  });
  afterAll(() => world.close());

  it("a program finds a function while it runs and calls it by the name search returned", async () => {
    const result = await world.handlers.runCode(
      `const [hit] = await tools.search("list carriers");
       const [ns, fn] = hit.name.split(".");
       const { carriers } = await globalThis[ns][fn]({});
       return { via: hit.name, carriers: carriers.length };`,
      "t1",
    );
    expect(valueOf(result)).toEqual({ via: "shipping.list_carriers", carriers: 5 });
  });
});
