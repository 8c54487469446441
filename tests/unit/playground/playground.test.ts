/**
 * The page's state without a page: the same Playground the browser builds before hydration, with
 * Node's collaborators (the demo host on loopback, the real QuickJS engine behind the page's
 * RunController, the chat route handled in-process with the demo model). What the hooks wired
 * before is tested here as plain objects: the editor taking the model's code, step mode, classic
 * mode, a run handed to the chat, compare, evals, and the session kept across reloads.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { ServerRegistry } from "@/lib/mcp/registry";
import { httpModelStep } from "@/lib/model/browser/http-model-step";
import { examplePrompt } from "@/lib/model/demo/demo-script";
import { Playground } from "@/lib/playground/playground";
import { SessionKeeper } from "@/lib/playground/session-keeper";
import type { KeyValueStore } from "@/lib/storage/key-value";
import { SAMPLE_CODE } from "@/lib/editor/sample-code";
import { liveWorker } from "../sandbox/ports";
import { sleep, until } from "../timeline/helpers";
import { routeFetch } from "../../fixtures/model/route-fetch";
import { SHIPPING_SCRIPTS } from "@/lib/model/demo/scripts-shipping";
import { SkillStore } from "@/lib/playground/skill-store";
import { shareStateSchema } from "@/lib/share/schema";
import { inferInputSchema, inferSchema } from "@/lib/skills/infer-schema";
import { runSkillTest, testFromRun } from "@/lib/skills/skill-tests";
import { recordedCalls } from "@/lib/timeline/run-record";

let demo: Awaited<ReturnType<typeof startDemoHost>>;
beforeAll(async () => {
  demo = await startDemoHost();
});
afterAll(() => demo.close());

const pages: Playground[] = [];
afterEach(async () => {
  for (const page of pages.splice(0)) await page.dispose();
});

/** A started page with the four demo servers connected. */
async function openPage(): Promise<Playground> {
  const page = new Playground({
    registry: new ServerRegistry(),
    connectOptions: { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" },
    createWorker: liveWorker,
    modelStep: (body) => httpModelStep({ body, fetch: routeFetch }),
  });
  pages.push(page);
  page.start();
  await until(() => page.servers.view.snapshot().connected.length === 4 && page.workbench.sandbox.snapshot().ready, "the demo servers and the sandbox");
  return page;
}

const idle = (page: Playground) => page.chat.snapshot().status === "ready" || page.chat.snapshot().status === "error";

describe("Playground", () => {
  it("code mode: the model's program shows in the editor and its history, runs in the workbench, and its run lands in the history as the chat's", async () => {
    const page = await openPage();
    page.model.update({ stepMode: false });
    const prompt = examplePrompt("shipping", 0);
    await page.chat.send(prompt);
    await until(() => idle(page), "the answer");
    expect(page.chat.snapshot().error).toBeUndefined();
    const { code, history } = page.editor.snapshot();
    expect(code).not.toBe(SAMPLE_CODE);
    expect(code).toContain("shipping.");
    // What the editor held before the model's code is kept in the history too.
    expect(history.map((e) => e.code)).toEqual([code, SAMPLE_CODE]);
    const [run] = page.workbench.history.snapshot();
    expect(run?.source).toBe("chat");
    expect(run?.record.events.some((e) => e.type === "call-start")).toBe(true);
    // The apps of its calls' tools are kept with the run, read once, so it shows them offline too.
    await until(() => page.workbench.history.snapshot()[0]?.record.apps !== undefined, "the run's apps");
    const kept = page.workbench.history.snapshot()[0]?.record.apps ?? {};
    expect(Object.keys(kept)).toEqual(["shipping\u0000get_quote"]);
    expect(kept["shipping\u0000get_quote"]).toMatchObject({ tool: { name: "get_quote" }, resource: { uri: "ui://shipping/quote.html" } });
    // The program's tool call is linked to its run, so its card can find the calls' MCP Apps.
    const call = page.chat
      .snapshot()
      .messages.flatMap((m) => m.parts)
      .find((p) => "toolCallId" in p && p.type === "tool-execute_code");
    expect(call && "toolCallId" in call ? page.world.chatRuns.snapshot()[call.toolCallId] : undefined).toBe(run?.record.id);
    // "Show run" finds it through that link, or (a restored conversation has no links) by its code.
    const toolCallId = call && "toolCallId" in call ? call.toolCallId : "";
    expect(page.runOfToolCall(toolCallId)).toBe(run?.record.id);
    page.world.chatRuns.link(toolCallId, { ...run!.record, id: "a run no longer kept" });
    expect(page.runOfToolCall(toolCallId)).toBe(run?.record.id);
    expect(page.runOfToolCall("no such call")).toBeUndefined();
  });

  it("an MCP App's calls go through the host functions: mocks, approval beside the app, the history as runs from 'app', the raw result back", async () => {
    const page = await openPage();
    const asked: unknown[] = [];
    const options = (allow: boolean) => ({
      signal: new AbortController().signal,
      ask: (call: unknown) => {
        asked.push(call);
        return Promise.resolve(allow);
      },
    });
    const quote = { carrier: "postal", origin: "DE", destination: "US", weightKg: 2 };
    const live = await page.workbench.callForApp("shipping", "get_quote", quote, options(true));
    expect(live.structuredContent).toMatchObject({ carrier: "postal", currency: "EUR" });
    expect(live.content[0]).toMatchObject({ type: "text" });
    const [entry] = page.workbench.history.snapshot();
    expect(entry?.source).toBe("app");
    expect(entry?.record.events.filter((e) => e.type === "call-start")).toMatchObject([{ namespace: "shipping", name: "get_quote", args: quote }]);

    // The arguments are checked like a program's; a mock answers instead of the server.
    expect(await page.workbench.callForApp("shipping", "get_quote", { carrier: "nobody" }, options(true))).toMatchObject({ isError: true });
    page.workbench.mocks.setMock("shipping", "get_quote", { kind: "value", value: { price: 1 } });
    expect(await page.workbench.callForApp("shipping", "get_quote", quote, options(true))).toEqual({
      content: [{ type: "text", text: '{"price":1}' }],
      structuredContent: { price: 1 },
    });

    // A destructive tool asks the person (beside the app); a denial never reaches the server.
    expect(asked).toEqual([]);
    const denied = await page.workbench.callForApp("store", "place_order", { cartId: "c1" }, options(false));
    expect(denied).toEqual({ content: [{ type: "text", text: "denied by the person" }], isError: true });
    expect(asked).toEqual([{ server: "store", tool: "place_order", args: { cartId: "c1" } }]);
    expect(await page.workbench.callForApp("nowhere", "x", {}, options(true))).toMatchObject({
      isError: true,
      content: [{ text: "nowhere is not connected." }],
    });
  });

  it("step mode (on by default with a destructive tool connected): the program waits in the editor; Run sends what the editor holds, edited", async () => {
    const page = await openPage();
    const sending = page.chat.send(examplePrompt("shipping", 0));
    await until(() => page.editor.snapshot().pending !== undefined, "the program to wait in the editor");
    expect(page.workbench.history.snapshot()).toEqual([]);
    page.editor.setCode("return 41 + 1");
    page.world.approve();
    await sending;
    await until(() => idle(page), "the answer");
    expect(page.editor.snapshot().pending).toBeUndefined();
    expect(page.workbench.history.snapshot()[0]?.record.events.find((e) => e.type === "start")).toMatchObject({ code: "return 41 + 1" });
  });

  it("Stop while a program waits in step mode answers it as skipped, and the chat ends", async () => {
    const page = await openPage();
    void page.chat.send(examplePrompt("shipping", 0));
    await until(() => page.editor.snapshot().pending !== undefined, "the program to wait in the editor");
    void page.chat.stop();
    await until(() => idle(page), "the chat to stop");
    expect(page.editor.snapshot().pending).toBeUndefined();
    expect(page.workbench.history.snapshot()).toEqual([]);
  });

  it("classic mode: each round runs in the workbench without taking over the editor", async () => {
    const page = await openPage();
    page.model.update({ toolMode: "classic", stepMode: false });
    await page.chat.send(examplePrompt("shipping", 0));
    await until(() => idle(page), "the answer");
    expect(page.chat.snapshot().error).toBeUndefined();
    expect(page.editor.snapshot().code).toBe(SAMPLE_CODE);
    const runs = page.workbench.history.snapshot();
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.source === "chat")).toBe(true);
  });

  it("a run from the editor can be handed to the model as the next message, once there is a conversation", async () => {
    const page = await openPage();
    page.model.update({ stepMode: false });
    page.runFromEditor("return { sum: 1 + 2 }");
    await until(() => page.editorRun.snapshot() !== undefined, "the editor run");
    page.sendEditorRun();
    expect(page.chat.snapshot().messages).toEqual([]);
    await page.chat.send(examplePrompt("lab", 0));
    await until(() => idle(page), "the answer");
    page.runFromEditor("return { sum: 1 + 2 }");
    await until(() => page.editorRun.snapshot() !== undefined, "the editor run");
    const before = page.chat.snapshot().messages.length;
    page.sendEditorRun();
    await until(() => idle(page) && page.chat.snapshot().messages.length > before, "the answer to the run");
    const sent = page.chat.snapshot().messages[before];
    expect(JSON.stringify(sent)).toContain('\\"sum\\": 3');
    expect(page.editorRun.snapshot()).toBeUndefined();
  });

  it("compare runs code and classic lanes through the workbench with the chat's model", async () => {
    const page = await openPage();
    page.model.update({ stepMode: false });
    expect(page.compare.lanes().map((l) => `${l.toolMode}:${l.provider}`)).toEqual(["code:demo", "classic:demo"]);
    page.compare.run(examplePrompt("shipping", 0));
    await until(() => page.compare.snapshot().running, "the compare to start");
    await until(() => !page.compare.snapshot().running, "the compare to end");
    expect(page.compare.snapshot().results.map((r) => r.status)).toEqual(["done", "done"]);
    expect(page.workbench.history.snapshot().every((r) => r.source === "compare")).toBe(true);
  });

  it("evals: a case runs in both modes against the page's servers, offered only its own; a case naming a server not connected fails saying so", async () => {
    const page = await openPage();
    await page.evals.load(
      JSON.stringify({
        name: "page",
        defaults: { models: ["demo:code-mode-demo"], modes: ["code", "classic"] },
        cases: [
          { name: "quotes", prompt: examplePrompt("shipping", 0), servers: ["shipping"], assert: [{ toolCalled: "shipping.get_quote" }, { noError: true }] },
          { name: "elsewhere", prompt: "hello", servers: ["nowhere"] },
        ],
      }),
      "page.json",
    );
    expect(page.evals.snapshot().errors).toEqual([]);
    page.evals.run();
    await until(() => page.evals.snapshot().running, "the suite to start");
    await until(() => !page.evals.snapshot().running, "the suite to end");
    const runs = page.evals.snapshot().runs;
    expect(runs.map((r) => `${r.case}:${r.mode}`)).toEqual(["quotes:code", "quotes:classic", "elsewhere:code", "elsewhere:classic"]);
    expect(runs.slice(0, 2).map((r) => r.passed)).toEqual([true, true]);
    // Classic mode needs more model requests than the one program of code mode.
    expect(runs[1]!.requests).toBeGreaterThan(runs[0]!.requests);
    expect(runs[2]?.error).toMatch(/Not connected in this page: nowhere/);
    expect(page.workbench.history.snapshot().every((r) => r.source === "eval")).toBe(true);
  });

  it("evals: a YAML suite loads once its parser has, JSON at once, and only the latest load applies", async () => {
    const page = await openPage();
    const yaml = "name: from-yaml\ncases:\n  - name: c\n    prompt: hello\n    servers: [lab]\n";
    await page.evals.load(yaml, "suite.yaml");
    expect(page.evals.snapshot()).toMatchObject({ suite: { name: "from-yaml", cases: [{ name: "c" }] }, errors: [] });
    // Pasted text without a file name is YAML unless it starts with "{"; its errors name the problem.
    await page.evals.load("name: [unclosed");
    expect(page.evals.snapshot().errors).toEqual([expect.stringMatching(/^not YAML/) as string]);
    expect(page.evals.snapshot().suite?.name).toBe("from-yaml");
    // A JSON suite loaded while a YAML one is still being read wins: it was the person's last word.
    const slow = page.evals.load(yaml.replace("from-yaml", "stale"), "suite.yml");
    const json = page.evals.load(JSON.stringify({ name: "from-json", cases: [{ name: "c", prompt: "p", servers: ["lab"] }] }), "s.json");
    expect(page.evals.snapshot().suite?.name).toBe("from-json");
    await Promise.all([slow, json]);
    expect(page.evals.snapshot()).toMatchObject({ suite: { name: "from-json" }, errors: [] });
  });

  it("the session keeper restores a saved session into a new page and saves what changes", async () => {
    const saved = new Map<string, unknown>();
    const kv: KeyValueStore = {
      get: (key) => Promise.resolve(saved.get(key)),
      set: (key, value) => (saved.set(key, structuredClone(value)), Promise.resolve()),
      del: (key) => (saved.delete(key), Promise.resolve()),
    };
    const first = await openPage();
    const keeper = new SessionKeeper(first, kv, { saveDelayMs: 5 });
    await keeper.start({ restoreConversation: true });
    first.model.update({ stepMode: false });
    await first.chat.send(examplePrompt("shipping", 0));
    await until(() => idle(first), "the answer");
    await keeper.flush();
    await until(() => saved.size === 1, "the save");
    keeper.dispose();

    const second = await openPage();
    const restored = new SessionKeeper(second, kv);
    await restored.start({ restoreConversation: true });
    expect(second.chat.snapshot().messages.map((m) => m.role)).toEqual(first.chat.snapshot().messages.map((m) => m.role));
    expect(second.workbench.history.snapshot().map((r) => r.record.id)).toEqual(first.workbench.history.snapshot().map((r) => r.record.id));
    expect(second.editor.snapshot().history.map((e) => e.code)).toEqual(first.editor.snapshot().history.map((e) => e.code));
    expect(restored.snapshot().restored).toBe(true);
    await restored.clear();
    expect([second.chat.snapshot().messages.length, second.workbench.history.snapshot().length, saved.size]).toEqual([0, 0, 0]);
    restored.dispose();
  });
});

describe("Playground skills", () => {
  const program = (SHIPPING_SCRIPTS[0]?.code ?? "").replace("o.maxDays <= 5", "o.maxDays <= maxDays");

  /** Runs the shipping example with an input from the editor, and saves it as a skill from its run. */
  async function savedSkill(page: Playground) {
    page.editor.setCode(program);
    page.editor.setData('{ "maxDays": 5 }');
    page.runFromEditor();
    await until(() => page.editorRun.snapshot() !== undefined, "the editor's run");
    const [run] = page.workbench.history.snapshot();
    expect(run?.record.events[0]).toMatchObject({ type: "start", data: { maxDays: 5 } });
    const made = testFromRun(run!.record, "within 5 days");
    if (!made.ok) throw new Error(made.message);
    const value = page.editorRun.snapshot()?.result;
    const skill = page.skills.save({
      name: "cheapest_carrier",
      description: "The cheapest carrier from DE to US within maxDays.",
      inputSchema: inferInputSchema([made.test.input]),
      outputSchema: inferSchema([value?.ok ? value.value : undefined]),
      code: program,
      destructive: false,
      tests: [made.test],
    });
    return { skill, value };
  }

  it("a program run with inputs becomes a skill: declared under skills, callable by programs, its calls nested under its call", async () => {
    const page = await openPage();
    const { value } = await savedSkill(page);
    const catalog = page.servers.view.snapshot().catalog;
    expect(catalog.declarations.text).toContain("declare namespace skills{");
    expect(catalog.declarations.text).toContain("function cheapest_carrier(input:{maxDays:number})");
    const result = await page.workbench.run("return await skills.cheapest_carrier({ maxDays: 5 });");
    expect(result).toMatchObject({ ok: true, value: value?.ok ? value.value : "?" });
    const calls = recordedCalls(page.workbench.history.snapshot()[0]!.record);
    expect(calls[0]).toMatchObject({ namespace: "skills", name: "cheapest_carrier" });
    const nested = calls.filter((c) => c.info.parent === calls[0]?.callId);
    expect(nested.length).toBeGreaterThan(3);
    expect(nested.every((c) => c.server === "shipping" && c.outcome.kind !== "pending")).toBe(true);
  });

  it("a skill's calls go through the person's mocks and approvals, like any program's", async () => {
    const page = await openPage();
    const order = {
      name: "order_it",
      description: "Places an order.",
      inputSchema: { type: "object", properties: {} },
      code: `try { return await store.place_order({ cartId: "c1", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { return "refused: " + e.message; }`,
      destructive: true,
      tests: [],
    };
    page.skills.save(order);
    page.skills.save({
      ...order,
      name: "quote_it",
      destructive: false,
      code: `return await shipping.get_quote({ carrier: "parcelnet", origin: "DE", destination: "US", weightKg: 1 });`,
    });
    // The destructive inner call waits for the person; denied, it never reaches the store.
    const running = page.workbench.run("return await skills.order_it({});");
    await until(() => page.workbench.approvals.broker.snapshot().length === 1, "the approval prompt");
    const [asked] = page.workbench.approvals.broker.snapshot();
    expect(asked).toMatchObject({ server: "store", tool: "place_order" });
    page.workbench.approvals.broker.decide(asked!.callId, "deny");
    const denied = await running;
    expect(denied.ok && String(denied.value)).toMatch(/^refused: /);
    const nested = recordedCalls(page.workbench.history.snapshot()[0]!.record).find((c) => c.tool === "place_order");
    expect(nested).toMatchObject({ approval: "denied", info: { parent: 1 } });
    // A mock answers the skill's inner call.
    page.workbench.mocks.setMock("shipping", "get_quote", { kind: "value", value: { price: 1, currency: "EUR" } });
    expect(await page.workbench.run("return await skills.quote_it({});")).toMatchObject({ ok: true, value: { price: 1, currency: "EUR" } });
    const mocked = recordedCalls(page.workbench.history.snapshot()[0]!.record).find((c) => c.tool === "get_quote");
    expect(mocked?.info).toMatchObject({ source: "mock", parent: 1 });
  });

  it("the demo model calls a skill the message names, in code and classic mode", async () => {
    const page = await openPage();
    page.model.update({ stepMode: false });
    await page.chat.send('Use skills.nothing_here with { "maxDays": 5 }');
    await until(() => idle(page), "the answer");
    expect(JSON.stringify(page.chat.snapshot().messages.at(-1))).toContain("There is no skill `skills.nothing_here` to call.");
    await page.chat.clear();
    await savedSkill(page);
    await page.chat.send('Use skills.cheapest_carrier with { "maxDays": 5 }');
    await until(() => idle(page), "the answer");
    expect(JSON.stringify(page.chat.snapshot().messages.at(-1))).toContain("`skills.cheapest_carrier` returned:");
    const calls = recordedCalls(page.workbench.history.snapshot()[0]!.record);
    expect(calls[0]).toMatchObject({ namespace: "skills", name: "cheapest_carrier", args: { maxDays: 5 } });
    expect(calls.filter((c) => c.info.parent === calls[0]?.callId).length).toBeGreaterThan(3);
    await page.chat.clear();
    page.model.update({ toolMode: "classic" });
    await page.chat.send('Use skills.cheapest_carrier with { "maxDays": 5 }');
    await until(() => idle(page), "the classic answer");
    expect(JSON.stringify(page.chat.snapshot().messages.at(-1))).toContain("`skills.cheapest_carrier` returned:");
  });

  it("a skill's test replays offline in the skills' worker, and fails when its code changes", async () => {
    const page = await openPage();
    const { skill } = await savedSkill(page);
    const run = (request: Parameters<typeof page.workbench.runSkill>[0], host: Parameters<typeof page.workbench.runSkill>[1]) =>
      page.workbench.runSkill(request, host, () => undefined, new AbortController().signal);
    const tools = (server: string, tool: string) =>
      page.servers.view
        .snapshot()
        .connected.find((s) => s.config.name === server)
        ?.tools.find((t) => t.name === tool);
    expect(await runSkillTest(skill, skill.tests[0]!, run, tools)).toMatchObject({ passed: true, problems: [] });
    const broken = await runSkillTest({ code: skill.code.replace("o.maxDays <= maxDays", "o.maxDays <= maxDays + 3") }, skill.tests[0]!, run, tools);
    expect(broken.passed).toBe(false);
    expect(broken.problems[0]?.message).toBe('value.cheapest.carrier is "EuroDash"; it was "SwiftAir Express" when recorded.');
  });

  it("a shared link's skills are held for review; refused ones are said in the Skills tab", async () => {
    const page = await openPage();
    const skill = {
      name: "double",
      description: "Twice x.",
      inputSchema: { type: "object", properties: {} },
      code: "return 2;",
      destructive: false,
      tests: [],
    };
    page.skills.save(skill);
    const at = "2026-11-27T00:00:00.000Z";
    page.openShare(
      shareStateSchema.parse({
        version: 1,
        servers: [],
        skills: [
          { ...skill, createdAt: at, updatedAt: at },
          { ...skill, name: "triple", createdAt: at, updatedAt: at },
        ],
      }),
    );
    expect(page.skills.get("triple")).toMatchObject({ status: "review", from: "a share link" });
    expect(page.skills.snapshot().sharedNotice).toBe(
      "Skills from the shared link were not imported:\ndouble: you already have a skill of this name (delete yours first to import this one)",
    );
    page.openShare(shareStateSchema.parse({ version: 1, servers: [], skills: [{ ...skill, name: "no way", createdAt: at, updatedAt: at }] }));
    expect(page.skills.snapshot().sharedNotice).toMatch(/^Skills from the shared link were not imported:\nskills\[0\]\.name: /);
  });

  it("skills are kept; an imported one is offered to nothing until the person trusts it", async () => {
    const saved = new Map<string, unknown>();
    const kv: KeyValueStore = {
      get: (k) => Promise.resolve(saved.get(k)),
      set: (k, v) => Promise.resolve(void saved.set(k, v)),
      del: (k) => Promise.resolve(void saved.delete(k)),
    };
    const first = new SkillStore(kv);
    const skill = {
      name: "double",
      description: "Twice x.",
      inputSchema: { type: "object", properties: { x: { type: "number" } } },
      code: "return x * 2",
      destructive: false,
      tests: [],
    };
    await first.load();
    first.save(skill);
    await sleep(0);
    const second = new SkillStore(kv);
    await second.load();
    expect(second.trusted().map((s) => s.name)).toEqual(["double"]);
    const imported = second.importSkills([{ ...skill, name: "triple", code: "return x * 3", createdAt: "x", updatedAt: "x" }], "skills.json");
    expect(imported).toEqual({ added: ["triple"], refused: [] });
    expect(second.importSkills([{ ...skill, createdAt: "x", updatedAt: "x" }], "skills.json").refused).toEqual([
      "double: you already have a skill of this name (delete yours first to import this one)",
    ]);
    expect(second.trusted().map((s) => s.name)).toEqual(["double"]);
    await sleep(0);
    const third = new SkillStore(kv);
    await third.load();
    expect(third.get("triple")).toMatchObject({ status: "review", from: "skills.json" });
    third.trust("triple");
    expect(third.trusted().map((s) => s.name)).toEqual(["double", "triple"]);
    await sleep(0);
    // A skill arriving before the saved ones are read (a share link opened at once) loses none of them.
    const fourth = new SkillStore(kv);
    fourth.importSkills([{ ...skill, name: "quadruple", code: "return x * 4", createdAt: "x", updatedAt: "x" }], "a share link");
    await fourth.load();
    await sleep(0);
    const fifth = new SkillStore(kv);
    await fifth.load();
    expect(fifth.snapshot().entries.map((e) => `${e.skill.name}:${e.status}`)).toEqual(["double:trusted", "triple:trusted", "quadruple:review"]);
  });
});
