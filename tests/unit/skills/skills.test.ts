import { describe, expect, it } from "vitest";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import type { HostFunctions, RunEvent } from "@/lib/sandbox/types";
import { hostApiOf } from "@/lib/sandbox/host-api";
import { createToolCatalog } from "@/lib/codemode/tool-catalog";
import { inferInputSchema, inferSchema } from "@/lib/skills/infer-schema";
import { skillsServer, skillTool, type Skill } from "@/lib/skills/skill";
import { SKILL_CALL_ID_BASE, withSkills, type SkillRunner } from "@/lib/skills/skill-host";
import { firstDifference, runSkillTest, testFromRun } from "@/lib/skills/skill-tests";
import type { CallInfo } from "@/lib/timeline/call-records";
import { RunRecorder } from "@/lib/timeline/recorder";
import { recordedCalls } from "@/lib/timeline/run-record";
import { buildWaterfall } from "@/lib/timeline/waterfall";
import { recordView } from "@/lib/timeline/record-view";
import { FAST, fakeTool, recordRun } from "../timeline/helpers";

describe("inferSchema", () => {
  it("proposes types from what every sample shows", () => {
    expect(inferSchema([3])).toEqual({ type: "integer" });
    expect(inferSchema([3, 2.5])).toEqual({ type: "number" });
    expect(inferSchema(["DE", "US", "FR"])).toEqual({ type: "string" });
    expect(inferSchema([true, null])).toEqual({ type: ["boolean", "null"] });
    expect(inferSchema([])).toEqual({});
  });

  it("marks a key required only when every object has it", () => {
    expect(inferSchema([{ a: 1, b: "x" }, { a: 2 }])).toEqual({
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "string" } },
      required: ["a"],
    });
  });

  it("reads array items from all their elements, nested", () => {
    expect(inferSchema([[{ id: "A", total: 1 }, { id: "B" }], []])).toEqual({
      type: "array",
      items: { type: "object", properties: { id: { type: "string" }, total: { type: "integer" } }, required: ["id"] },
    });
    expect(inferSchema([[]])).toEqual({ type: "array" });
  });

  it("keeps object and scalar samples apart with anyOf", () => {
    expect(inferSchema([{ a: 1 }, "x"])).toEqual({ anyOf: [{ type: "object", properties: { a: { type: "integer" } }, required: ["a"] }, { type: "string" }] });
  });

  it("treats a key named __proto__ as a property", () => {
    const schema = inferSchema([JSON.parse('{"__proto__": {"polluted": true}}')]) as { properties: Record<string, unknown> };
    expect(Object.hasOwn(schema.properties, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("gives a skill closed object inputs", () => {
    expect(inferInputSchema([{ maxDays: 5, to: "US" }, { maxDays: 3 }])).toEqual({
      type: "object",
      properties: { maxDays: { type: "integer" }, to: { type: "string" } },
      required: ["maxDays"],
      additionalProperties: false,
    });
    expect(inferInputSchema([])).toEqual({ type: "object", properties: {}, additionalProperties: false });
  });
});

const CODE = `const { carriers } = await shipping.list_carriers();
const quotes = await Promise.all(carriers.map((c) => shipping.get_quote({ carrier: c, weightKg })));
const fit = quotes.filter((q) => q.days <= maxDays).sort((a, b) => a.price - b.price);
return { cheapest: fit[0] ?? null, count: quotes.length };`;

function shippingHost() {
  const list_carriers = fakeTool(() => ({ carriers: ["dhl", "ups", "fedex"] }));
  const prices: Record<string, number> = { dhl: 20, ups: 12, fedex: 15 };
  const days: Record<string, number> = { dhl: 2, ups: 7, fedex: 4 };
  const get_quote = fakeTool((args) => ({
    carrier: args.carrier,
    price: prices[String(args.carrier)]! * Number(args.weightKg),
    days: days[String(args.carrier)],
  }));
  const host: HostFunctions = { shipping: { list_carriers, get_quote } };
  return { host, list_carriers, get_quote };
}

function skill(overrides: Partial<Skill> = {}): Skill {
  return {
    name: "cheapest_carrier",
    description: "The cheapest carrier that delivers within maxDays.",
    inputSchema: inferInputSchema([{ maxDays: 5, weightKg: 2 }]),
    code: CODE,
    destructive: false,
    tests: [],
    createdAt: "2026-11-27T00:00:00.000Z",
    updatedAt: "2026-11-27T00:00:00.000Z",
    ...overrides,
  };
}

const nodeRunner: SkillRunner = (request, host, onEvent, signal) => runInNode({ ...request, limits: FAST }, host, { onEvent, signal });

describe("skills as tools", () => {
  it("declares skills under the skills namespace; a server named skills gets another", () => {
    const server = skillsServer([skill({ outputSchema: inferSchema([{ cheapest: { carrier: "fedex", price: 30, days: 4 }, count: 3 }]) })]);
    expect(server).toBeDefined();
    const catalog = createToolCatalog([{ name: "skills", tools: [{ name: "x", inputSchema: { type: "object" } }] }, server!]);
    expect(catalog.declarations.namespaces.map((n) => `${n.server}:${n.namespace}`).sort()).toEqual(["skills:skills", "skills:skills_"]);
    const text = catalog.declarations.namespaces.find((n) => n.namespace === "skills")!.text;
    expect(text).toContain("declare namespace skills{");
    expect(text).toContain("The cheapest carrier that delivers within maxDays.");
    expect(text).toMatch(
      /function cheapest_carrier\(input:\{maxDays:number;weightKg:number\}\):Promise<\{cheapest:\{carrier:string;price:number;days:number\};count:number\}>/,
    );
    expect(skillTool(skill({ destructive: true })).annotations?.destructiveHint).toBe(true);
    expect(skillsServer([])).toBeUndefined();
  });
});

describe("withSkills", () => {
  it("runs the skill's code with its input as data; inner calls arrive nested under the skill's call", async () => {
    const { host, get_quote } = shippingHost();
    const outer: RunEvent[] = [];
    const infos: Array<[number, CallInfo]> = [];
    const withSkill = withSkills(host, [skill()], { run: nodeRunner, onEvent: (e) => outer.push(e), onInfo: (id, info) => infos.push([id, info]) });
    const result = await runInNode({ code: "return await skills.cheapest_carrier({ maxDays: 5, weightKg: 2 })", limits: FAST }, withSkill, {
      onEvent: (e) => outer.push(e),
    });
    expect(result).toMatchObject({ ok: true, value: { cheapest: { carrier: "fedex", price: 30, days: 4 }, count: 3 } });
    expect(get_quote.calls).toHaveLength(3);
    const starts = outer.filter((e): e is Extract<RunEvent, { type: "call-start" }> => e.type === "call-start");
    expect(starts.map((e) => `${e.namespace}.${e.name}`)).toEqual([
      "skills.cheapest_carrier",
      "shipping.list_carriers",
      "shipping.get_quote",
      "shipping.get_quote",
      "shipping.get_quote",
    ]);
    const nested = starts.slice(1);
    expect(nested.every((e) => e.callId >= SKILL_CALL_ID_BASE && e.line === undefined)).toBe(true);
    expect(new Set(nested.map((e) => e.callId)).size).toBe(4);
    for (const e of nested) expect(infos).toContainEqual([e.callId, { parent: 1 }]);
  });

  it("a skill held for review: calling it says so, word for word, and runs nothing; a trusted one of the same name wins", async () => {
    const { host, list_carriers } = shippingHost();
    const result = await runInNode(
      { code: "return await skills.cheapest_carrier({ maxDays: 5, weightKg: 2 })", limits: FAST },
      withSkills(host, [], { run: nodeRunner, held: ["cheapest_carrier"] }),
    );
    expect(!result.ok && result.error.message).toBe(
      "skills.cheapest_carrier: this skill is waiting for review (it came from a share or an import): open the Skills tab, read its code and trust it; until then no program can call it.",
    );
    expect(list_carriers.calls).toHaveLength(0);
    const trusted = await runInNode(
      { code: "return (await skills.cheapest_carrier({ maxDays: 5, weightKg: 2 })).count", limits: FAST },
      withSkills(host, [skill()], { run: nodeRunner, held: ["cheapest_carrier"] }),
    );
    expect(trusted).toMatchObject({ ok: true, value: 3 });
  });

  it("refuses input that does not match the schema, before running anything", async () => {
    const { host, list_carriers } = shippingHost();
    const infos: Array<[number, CallInfo]> = [];
    const result = await runInNode(
      { code: "return await skills.cheapest_carrier({ maxDays: 'soon', weightKg: 2 })", limits: FAST },
      withSkills(host, [skill()], { run: nodeRunner, onInfo: (id, info) => infos.push([id, info]) }),
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toContain("skills.cheapest_carrier: Invalid arguments: arguments.maxDays must be integer");
    expect(!result.ok && result.error.message).not.toContain("skills.cheapest_carrier: skills.cheapest_carrier");
    expect(list_carriers.calls).toHaveLength(0);
    expect(infos[0]?.[1].validation).toContain("maxDays");
  });

  it("says which skill failed and why; a skill cannot call skills", async () => {
    const { host } = shippingHost();
    const loop = skill({ name: "loop", code: "return await skills.loop({})", inputSchema: { type: "object" } });
    const result = await runInNode({ code: "return await skills.loop({})", limits: FAST }, withSkills(host, [loop], { run: nodeRunner }));
    expect(!result.ok && result.error.message).toBe("skills.loop: the skill's program failed: ReferenceError: 'skills' is not defined");
  });

  it("nests the inner calls in a recorded run's waterfall", async () => {
    const { host } = shippingHost();
    const holder: { recorder?: RunRecorder } = {};
    const full = withSkills(host, [skill()], {
      run: nodeRunner,
      onEvent: (e) => holder.recorder?.onEvent(e),
      onInfo: (id, info) => holder.recorder?.onCallInfo(id, info),
    });
    const code = "const a = await shipping.list_carriers(); const b = await skills.cheapest_carrier({ maxDays: 3, weightKg: 1 }); return [a, b];";
    const recorder = (holder.recorder = new RunRecorder({ id: "nested", code, api: hostApiOf(full) }));
    const result = await runInNode({ code, limits: FAST }, full, { onEvent: (e) => recorder.onEvent(e) });
    const record = recorder.finish(result);
    const calls = recordedCalls(record);
    expect(calls.filter((c) => c.info.parent === 2)).toHaveLength(4);
    const model = buildWaterfall(recordView(record).calls.chunks.flat());
    const rows = model.rows.flatMap((r) => (r.kind === "call" ? [`${r.depth}:${r.record.namespace}.${r.record.name}`] : []));
    expect(rows).toEqual([
      "0:shipping.list_carriers",
      "0:skills.cheapest_carrier",
      "1:shipping.list_carriers",
      "1:shipping.get_quote",
      "1:shipping.get_quote",
      "1:shipping.get_quote",
    ]);
  });
});

describe("skill tests", () => {
  const run = (request: Parameters<typeof runInNode>[0], host: HostFunctions) => runInNode({ ...request, limits: FAST }, host);

  async function savedTest() {
    const { host } = shippingHost();
    const { record } = await recordRun(CODE, () => host, { data: { maxDays: 5, weightKg: 2 } });
    const made = testFromRun(record, "within 5 days");
    if (!made.ok) throw new Error(made.message);
    return made.test;
  }

  it("turns a run into a test: its data, every call's answer and its value", async () => {
    const test = await savedTest();
    expect(test.input).toEqual({ maxDays: 5, weightKg: 2 });
    expect(test.calls.map((c) => `${c.namespace}.${c.name}`)).toEqual([
      "shipping.list_carriers",
      "shipping.get_quote",
      "shipping.get_quote",
      "shipping.get_quote",
    ]);
    expect(test.expected).toEqual({ ok: true, value: { cheapest: { carrier: "fedex", price: 30, days: 4 }, count: 3 } });
  });

  it("passes offline when nothing changed", async () => {
    const test = await savedTest();
    const result = await runSkillTest(skill(), test, run);
    expect(result).toMatchObject({ passed: true, problems: [] });
  });

  it("catches a changed value, with its path", async () => {
    const test = await savedTest();
    const changed = skill({ code: CODE.replace("a.price - b.price", "b.price - a.price") });
    const result = await runSkillTest(changed, test, run);
    expect(result.passed).toBe(false);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.kind).toBe("value");
    expect(result.problems[0]?.message).toContain('value.cheapest.carrier is "dhl"; it was "fedex" when recorded');
  });

  it("catches a call the recording does not have, and one the code no longer makes", async () => {
    const test = await savedTest();
    const extra = skill({ code: CODE.replace("weightKg })", "weightKg: weightKg + 1 })") });
    const result = await runSkillTest(extra, test, run);
    expect(result.problems[0]?.kind).toBe("extra-call");
    expect(result.problems[0]?.message).toContain('shipping.get_quote({"carrier":"dhl","weightKg":3})');
    const fewer = skill({ code: `const { carriers } = await shipping.list_carriers(); return { cheapest: null, count: carriers.length };` });
    const missing = await runSkillTest(fewer, test, run);
    expect(missing.problems.map((p) => p.kind)).toEqual(["missing-call", "value"]);
    expect(missing.problems[0]?.message).toContain("no longer makes 3 recorded calls, first shipping.get_quote(");
  });

  it("catches a schema that no longer accepts the recorded call, and a tool that is gone", async () => {
    const test = await savedTest();
    const tools = (server: string, tool: string) =>
      server === "shipping" && tool === "get_quote"
        ? {
            name: "get_quote",
            inputSchema: {
              type: "object",
              properties: { carrier: { type: "string" }, weightKg: { type: "number" }, origin: { type: "string" } },
              required: ["carrier", "weightKg", "origin"],
            },
          }
        : undefined;
    const result = await runSkillTest(skill(), test, run, tools);
    expect(result.problems.map((p) => p.kind)).toEqual(["tool-gone", "schema", "schema", "schema"]);
    expect(result.problems[0]?.message).toBe("shipping.list_carriers is not offered by the connected servers any more.");
    expect(result.problems[1]?.message).toContain(
      "shipping.get_quote's input schema no longer accepts the recorded arguments: Invalid arguments: arguments.origin is required",
    );
  });

  it("refuses a run that has not ended, or whose call's result was too large to keep", () => {
    const recorder = new RunRecorder({ id: "going", code: "return 1", maxValueChars: 10 });
    recorder.onEvent({ type: "call-start", callId: 1, namespace: "shipping", name: "list_carriers", args: {}, time: 1 });
    expect(testFromRun(recorder.snapshot(), "x")).toEqual({ ok: false, message: "That run has not ended, so it cannot be a test." });
    recorder.onEvent({ type: "call-end", callId: 1, ok: true, value: { carriers: ["a very long carrier name"] }, time: 2 });
    const record = recorder.finish({ ok: true, value: 1, logs: [], stats: { wallMs: 3, hostCalls: 1, peakInFlight: 1 } });
    expect(testFromRun(record, "x")).toEqual({ ok: false, message: "Call 1 (shipping.list_carriers) returned too much to keep, so the run cannot be a test." });
  });

  it("describes the first difference of two values", () => {
    expect(firstDifference({ a: [1, 2] }, { a: [1, 2] }, "value")).toBeUndefined();
    expect(firstDifference({ a: [1, 2] }, { a: [1] }, "value")).toBe("value.a has 2 items; 1 when recorded.");
    expect(firstDifference({}, { a: 1 }, "value")).toBe("value.a is missing; it was 1 when recorded.");
    expect(firstDifference(3, "3", "value")).toBe('value is 3; it was "3" when recorded.');
  });
});
