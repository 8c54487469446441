/** The service without a transport: the description budget, and the outcome of a run on the in-process engine. */
import { describe, expect, it } from "vitest";
import type { Tool } from "@modelcontextprotocol/client";
import { parseCodeModeConfig } from "@/lib/codemode-mcp/config";
import { codeModeApprovalPolicy, createCodeModeService } from "@/lib/codemode-mcp/service";
import { runInNode } from "@/lib/sandbox/node/node-engine";

const tool = (name: string): Tool => ({ name, description: `Does ${name}.`, inputSchema: { type: "object", properties: { q: { type: "string" } } } });
const servers = [
  {
    name: "alpha",
    tools: [tool("find_things"), tool("count_things")],
    connection: { callTool: () => Promise.resolve({ content: [{ type: "text" as const, text: '{"n":1}' }] }) },
  },
  { name: "beta", tools: [tool("send_mail")], connection: { callTool: () => Promise.resolve({ content: [] }) } },
];
function options(budget: number) {
  const parsed = parseCodeModeConfig(
    { mcpServers: { alpha: { url: "http://x/a" }, beta: { url: "http://x/b" } }, codeMode: { declarationsBudgetTokens: budget } },
    1,
  );
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.options;
}
const run = ({ request, host, onEvent }: Parameters<Parameters<typeof createCodeModeService>[0]["run"]>[0]) =>
  runInNode(request, host, onEvent ? { onEvent } : {});

describe("code-mode service", () => {
  it("puts the declarations in execute_code's description while they fit the budget", () => {
    const service = createCodeModeService({ servers, options: options(4000), run });
    expect(service.searchFirst).toBe(false);
    expect(service.description).toContain("declare namespace alpha");
    expect(service.description).toContain("find_things");
  });

  it("past the budget, lists the namespaces and says to search first", () => {
    const service = createCodeModeService({ servers, options: options(10), run });
    expect(service.searchFirst).toBe(true);
    expect(service.description).not.toContain("declare namespace");
    expect(service.description).toContain("- alpha: 2 functions");
    expect(service.description).toContain("- beta: 1 function\n");
    expect(service.description).toContain("search_tools");
    const found = service.search({ query: "mail" });
    expect(found).toMatchObject({ ok: true, text: expect.stringContaining("send_mail") as unknown });
    expect(service.search({ query: "mail", limit: 99 })).toMatchObject({ ok: false });
  });

  it("returns value, console and call summary; refuses data that is not an object", async () => {
    const service = createCodeModeService({ servers, options: options(4000), run });
    const outcome = await service.execute(
      { code: "console.log('hi'); const r = await alpha.find_things({ q }); return r.n + 1;", data: { q: "x" } },
      { clientName: "t" },
    );
    expect(outcome).toMatchObject({ ok: true, value: 2, logs: ["hi"], calls: { total: 1, failed: 0, tools: { "alpha.find_things": 1 } } });
    expect(await service.execute({ code: "return 1", data: [1] }, { clientName: "t" })).toMatchObject({ ok: false, kind: "input" });
    expect(await service.execute({ code: "return a.b.c" }, { clientName: "t" })).toMatchObject({ ok: false, kind: "runtime", line: 1 });
  });

  it("one approval policy per server: allow sends, refuse names why, ask puts it to the client or refuses one that cannot be asked", () => {
    const parsed = parseCodeModeConfig(
      {
        mcpServers: { a: { url: "http://x/a" }, r: { url: "http://x/r" }, q: { url: "http://x/q" } },
        codeMode: { destructive: { a: "allow", r: "refuse" }, defaultDestructive: "ask" },
      },
      1,
    );
    if (!parsed.ok) throw new Error(parsed.errors.join("; "));
    const destructive = (_server: string, tool: string) => tool === "wipe";
    const unasked = codeModeApprovalPolicy(parsed.options, destructive, undefined);
    expect(unasked.program).toBe("run");
    expect(unasked.needsApproval("a", "read")).toBe(false);
    expect(unasked.decider("a", "wipe")).toEqual({ by: "policy", decision: "approve" });
    expect(unasked.decider("r", "wipe")).toMatchObject({
      by: "policy",
      decision: "deny",
      message: expect.stringContaining('policy for "r" is refuse') as unknown,
    });
    expect(unasked.decider("q", "wipe")).toMatchObject({ by: "policy", decision: "deny", message: expect.stringContaining("cannot be asked") as unknown });
    const asking = codeModeApprovalPolicy(parsed.options, destructive, () => Promise.resolve(true));
    expect(asking.decider("q", "wipe")).toMatchObject({ by: "person" });
  });

  it("a program discovers functions while it runs (tools.search, tools.describe), outside the call summary", async () => {
    const service = createCodeModeService({ servers, options: options(10), run });
    const outcome = await service.execute(
      {
        code: 'const [hit] = await tools.search("mail"); const one = await tools.describe(hit.name); return [hit.name, one.declaration.includes("send_mail")];',
      },
      { clientName: "t" },
    );
    expect(outcome).toMatchObject({ ok: true, value: ["beta.send_mail", true], calls: { total: 0 } });
  });
});
