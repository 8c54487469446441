/** Opening a share, as plain functions over the page's stores (lib/playground/share-open.ts). */
import { describe, expect, it } from "vitest";
import { applyShare, readySharedReplay } from "@/lib/playground/share-open";
import type { ShareTargets } from "@/lib/playground/share-open";
import { shareStateSchema } from "@/lib/share/schema";
import { syntheticRun } from "@/lib/timeline/synthetic-run";
import { recordStart, type RunRecord } from "@/lib/timeline/run-record";
import { appKey, readRecordedApp } from "@/lib/mcp-apps/recorded-app";
import { buildShareState } from "@/lib/share/build";
import { describeShare } from "@/lib/share/summary";

function targets() {
  const done: string[] = [];
  const t: ShareTargets = {
    addRun: (record, source) => done.push(`run ${record.id} ${source ?? "-"}`),
    setCode: (code) => done.push(`code ${code}`),
    setData: (data) => done.push(`inputs ${data}`),
    adoptLimits: (limits) => done.push(`limits ${JSON.stringify(limits)}`),
    restoreConversation: (messages) => done.push(`conversation ${messages.length}`),
  };
  return { t, done };
}

/** A synthetic run with an id and the code it ran. */
function run(id: string, seed: number, code: string) {
  const record = syntheticRun(2, seed);
  return { ...record, id, events: record.events.map((event) => (event.type === "start" ? { ...event, code } : event)) };
}
const newer = run("run-newer", 1, "return 'newer';");
const older = run("run-older", 2, "return 'older';");

describe("applyShare", () => {
  it("adds the share's runs oldest first as the shared conversation's, then the code and its Inputs, the limits and the conversation; runs nothing", () => {
    const state = shareStateSchema.parse({
      version: 1,
      servers: [],
      code: "return 42;",
      inputs: '{ "n": 1 }',
      limits: { wallMs: 5_000 },
      messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "hi" }] }],
      runs: [newer, { not: "a run" }, older],
    });
    const { t, done } = targets();
    expect(applyShare(state, t)).toEqual({ runs: 2, leftOut: 1, skillsRefused: [] });
    expect(done).toEqual(["run run-older chat", "run run-newer chat", "code return 42;", 'inputs { "n": 1 }', 'limits {"wallMs":5000}', "conversation 1"]);
  });

  it("a shared run keeps the MCP Apps it carried (the share schema lets them through), for the page to read strictly", () => {
    const app = {
      tool: { name: "get_quote", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://s/q.html" } } },
      resource: { uri: "ui://s/q.html", html: "<p>quote</p>", csp: { connect: [], resource: [], frame: [] } },
    };
    const state = shareStateSchema.parse({ version: 1, servers: [], runs: [{ ...newer, apps: { [appKey("s", "get_quote")]: app } }] });
    const added: RunRecord[] = [];
    applyShare(state, { ...targets().t, addRun: (record) => added.push(record) });
    expect(readRecordedApp(added[0]?.apps?.[appKey("s", "get_quote")])).toEqual(app);
  });

  it("a share with nothing but servers changes nothing", () => {
    const { t, done } = targets();
    expect(applyShare(shareStateSchema.parse({ version: 1, servers: [] }), t)).toEqual({ runs: 0, leftOut: 0, skillsRefused: [] });
    expect(done).toEqual([]);
  });
});

describe("a share's skills", () => {
  const skill = {
    name: "double",
    description: "Twice x.",
    inputSchema: { type: "object", properties: { x: { type: "number" } } },
    code: "return x * 2;",
    destructive: false,
    tests: [],
    createdAt: "2026-11-27T00:00:00.000Z",
    updatedAt: "2026-11-27T00:00:00.000Z",
  };

  it("are built from the chosen skills without secrets, described, and held for review when opened", () => {
    const leaky = { ...skill, code: `const key = "sk-ant-api03-${"a".repeat(40)}";\nreturn x * 2;` };
    const { state } = buildShareState({ skills: [leaky] });
    expect(JSON.stringify(state)).not.toContain("sk-ant-api03");
    expect(describeShare(state)).toContain("1 skill (held for review: they run nothing until trusted)");
    const imported: string[] = [];
    const opened = applyShare(shareStateSchema.parse(state), { ...targets().t, importSkills: (skills) => imported.push(...skills.map((s) => s.name)) });
    expect(opened.skillsRefused).toEqual([]);
    expect(imported).toEqual(["double"]);
  });

  it("a link holding a bad skill imports none, and says why with the path", () => {
    const state = shareStateSchema.parse({ version: 1, servers: [], skills: [skill, { ...skill, name: "rm -rf" }] });
    const imported: string[] = [];
    const opened = applyShare(state, { ...targets().t, importSkills: (skills) => imported.push(...skills.map((s) => s.name)) });
    expect(imported).toEqual([]);
    expect(opened.skillsRefused[0]).toMatch(/^skills\[1\]\.name: /);
  });
});

describe("readySharedReplay", () => {
  it("puts a valid run in the history and its code in the editor; refuses anything else", () => {
    const { t, done } = targets();
    const record = readySharedReplay(newer, t);
    expect(record?.id).toBe("run-newer");
    expect(recordStart(newer)?.code).toBe("return 'newer';");
    expect(done).toEqual(["run run-newer -", "code return 'newer';"]);
    expect(readySharedReplay({ id: 1 }, t)).toBeUndefined();
    expect(done).toHaveLength(2);
  });
});
