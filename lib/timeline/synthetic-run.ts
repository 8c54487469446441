/**
 * A synthetic recorded run of any size, deterministic for a given seed: calls over a few
 * servers with parallel bursts, errors, output warnings, progress and console lines. For the
 * benchmark and for rendering a large waterfall without servers (first-paint measurements).
 */
import { seededRandom } from "../random/seeded";
import { RUN_FILE_FORMAT, RUN_FILE_VERSION, type RecordedEvent, type RunRecord } from "./run-record";

const SERVERS = [
  { namespace: "shipping", tools: ["get_quote", "list_carriers", "track"] },
  { namespace: "store", tools: ["search", "menu", "add_to_cart", "place_order"] },
  { namespace: "lab", tools: ["echo", "sleep", "flaky"] },
];

/** A finished run of `calls` tool calls (ids 1…n), about one console line per 20 calls. */
export function syntheticRun(calls: number, seed = 1): RunRecord {
  const rand = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const api = Object.fromEntries(SERVERS.map((s) => [s.namespace, [...s.tools]]));
  const starts: RecordedEvent[] = [];
  const ends: RecordedEvent[] = [];
  let clock = 0;
  for (let callId = 1; callId <= calls; callId++) {
    // Bursts of parallel calls (Promise.all) separated by sequential steps.
    if (rand() < 0.3) clock += rand() * 4;
    const server = pick(SERVERS);
    const name = pick(server.tools);
    const start = Number(clock.toFixed(3));
    const end = Number((start + 1 + rand() * 40).toFixed(3));
    starts.push({
      type: "call-start",
      time: start,
      callId,
      namespace: server.namespace,
      name,
      args: { id: callId, query: `item-${callId % 97}`, page: callId % 5 },
    });
    const roll = rand();
    if (roll < 0.04) ends.push({ type: "call-end", time: end, callId, ok: false, error: `upstream error ${callId % 7}` });
    else
      ends.push({
        type: "call-end",
        time: end,
        callId,
        ok: true,
        value: { id: callId, items: [`a${callId}`, `b${callId}`], price: Math.round(rand() * 10_000) / 100 },
      });
    if (roll > 0.97)
      ends.push({ type: "call-info", time: end, callId, info: { outputFindings: [{ path: "structuredContent.price", message: "must be number" }] } });
    ends.push({ type: "call-info", time: end, callId, info: { server: server.namespace, tool: name, resultBytes: 60 + (callId % 200) } });
    if (callId % 20 === 0) ends.push({ type: "log", time: end, level: "log", text: `step ${callId / 20}: ${callId} calls so far` });
  }
  const events = [...starts, ...ends].sort((a, b) => a.time - b.time);
  const wallMs = events.reduce((max, e) => Math.max(max, e.time), 0) + 1;
  return {
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    id: `synthetic-${calls}-${seed}`,
    title: `Synthetic run (${calls} calls)`,
    startedAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    events: [
      { type: "start", time: 0, codeHash: `synthetic${seed}`, limits: { maxCalls: Math.max(calls, 1) }, api },
      ...events,
      { type: "end", time: wallMs, ok: true, value: { calls }, stats: { wallMs, hostCalls: calls, peakInFlight: 10 } },
    ],
  };
}
