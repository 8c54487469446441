// Skills in Node (lib/skills/): what calling a program as a skill costs over running it inline
// (a second sandbox run, its calls passed into the caller's run), and a skill test's offline
// replay. Prints figures only; nothing here asserts on time.
import { runInNode } from "../../lib/sandbox/node/node-engine";
import type { HostFunctions, RunEvent } from "../../lib/sandbox/types";
import { withSkills } from "../../lib/skills/skill-host";
import { runSkillTest, type TestRunner } from "../../lib/skills/skill-tests";
import type { Skill } from "../../lib/skills/skill";
import { RunRecorder } from "../../lib/timeline/recorder";
import { hostApiOf } from "../../lib/sandbox/host-api";
import { median, type BenchRow } from "./rows";

const HOST: HostFunctions = { bench: { quote: (args) => Promise.resolve({ carrier: (args as { carrier: number }).carrier, price: 10 }) } };
const BODY =
  "const quotes = await Promise.all([1, 2, 3, 4, 5].map((carrier) => bench.quote({ carrier, weightKg })));\nreturn quotes.sort((a, b) => a.price - b.price)[0];";
const SKILL: Skill = {
  name: "cheapest",
  description: "The cheapest of five quotes.",
  inputSchema: { type: "object", properties: { weightKg: { type: "number" } }, required: ["weightKg"] },
  code: BODY,
  destructive: false,
  tests: [],
  createdAt: "2026-11-27T00:00:00.000Z",
  updatedAt: "2026-11-27T00:00:00.000Z",
};

async function timed(run: () => Promise<{ ok: boolean }>): Promise<number> {
  const start = performance.now();
  const result = await run();
  if (!result.ok) throw new Error("benchmark run failed");
  return performance.now() - start;
}

/** A run recorded as the page records it: the recorder fed every event, nested ones included. */
function recorded(code: string, host: HostFunctions, data?: Record<string, unknown>) {
  const recorder = new RunRecorder({ id: "bench", code, api: hostApiOf(host) });
  return { recorder, run: () => runInNode({ code, ...(data ? { data } : {}) }, host, { onEvent: (event: RunEvent) => recorder.onEvent(event) }) };
}

export async function benchSkills(): Promise<BenchRow[]> {
  const floor: number[] = [];
  const inline: number[] = [];
  const viaSkill: number[] = [];
  const replay: number[] = [];
  const nodeRunner: TestRunner = (request, host) => runInNode(request, host);
  const made = await runInNode({ code: BODY, data: { weightKg: 2 } }, HOST);
  const test = {
    name: "five quotes",
    input: { weightKg: 2 },
    calls: [1, 2, 3, 4, 5].map((carrier) => ({
      namespace: "bench",
      name: "quote",
      server: "bench",
      tool: "quote",
      args: { carrier, weightKg: 2 },
      outcome: { ok: true as const, value: { carrier, price: 10 } },
    })),
    expected: { ok: true as const, value: made.ok ? made.value : null },
  };
  for (let round = 0; round < 260; round++) {
    const measure = round >= 60;
    const a = await timed(() => runInNode({ code: "return 1" }, HOST));
    const b = await timed(recorded(BODY, HOST, { weightKg: 2 }).run);
    const holder: { recorder?: RunRecorder } = {};
    const host = withSkills(HOST, [SKILL], {
      run: (request, h, onEvent, signal) => runInNode(request, h, { onEvent, signal }),
      onEvent: (event) => holder.recorder?.onEvent(event),
      onInfo: (callId, info) => holder.recorder?.onCallInfo(callId, info),
    });
    const skillRun = recorded("return await skills.cheapest({ weightKg: 2 });", host);
    holder.recorder = skillRun.recorder;
    const c = await timed(skillRun.run);
    const start = performance.now();
    const result = await runSkillTest(SKILL, test, nodeRunner);
    const d = performance.now() - start;
    if (!result.passed) throw new Error(`the bench skill's test failed: ${result.problems.map((p) => p.message).join("; ")}`);
    if (!measure) continue;
    floor.push(a);
    inline.push(b);
    viaSkill.push(c);
    replay.push(d);
  }
  const overhead = median(viaSkill) - median(inline);
  return [
    { name: "floor: a `return 1` run", median: median(floor), unit: "ms", note: "200 runs after 60 to warm up, interleaved with the rows below" },
    { name: "5 parallel host calls, inline, recorded", median: median(inline), unit: "ms", note: "the program run as it is" },
    {
      name: "the same as `skills.cheapest({...})`, recorded with its nested calls",
      median: median(viaSkill),
      unit: "ms",
      note: "a second sandbox run, input checked",
    },
    {
      name: "a skill call's cost over inline",
      value: overhead,
      unit: "ms",
      note: `${(median(viaSkill) / median(inline)).toFixed(2)}× inline; ${(overhead / median(floor)).toFixed(2)}× the floor`,
    },
    { name: "a skill test replayed offline (5 recorded calls)", median: median(replay), unit: "ms", note: "runSkillTest: replay host, value compared" },
  ];
}
