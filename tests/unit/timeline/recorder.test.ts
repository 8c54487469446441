import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer, type McpConnection } from "@/lib/mcp/connection";
import { demoServerPath } from "@/lib/demo-servers/catalog";
import { buildHostFunctions, type HostServer } from "@/lib/host-calls/mcp-tools";
import { REDACTED } from "@/lib/secrets/redact";
import { RunRecorder } from "@/lib/timeline/recorder";
import { exportRunFile } from "@/lib/timeline/run-file";
import { recordedCalls, recordEnd, recordStart } from "@/lib/timeline/run-record";
import { scrubText } from "@/lib/secrets/scrub";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { fakeTool, recordRun, valueOf } from "./helpers";

let demo: Awaited<ReturnType<typeof startDemoHost>>;
let lab: HostServer;
let connection: McpConnection;

beforeAll(async () => {
  demo = await startDemoHost();
  const config = { id: "lab", name: "lab", transport: "streamable-http" as const, url: demoServerPath("lab"), headers: {}, enabled: true };
  connection = await connectToServer(config, { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" });
  lab = { name: "lab", connection, tools: await connection.listTools() };
});
afterAll(async () => {
  await connection.close();
  await demo.close();
});

describe("RunRecorder on a real run against the lab demo server", () => {
  it("records start, each call with server, tool, arguments, times, result or error, console lines and the end", async () => {
    const code = `
      console.log("starting");
      const [a, b] = await Promise.all([lab.echo({ message: "one" }), lab.sleep({ ms: 30 })]);
      try { await lab.fail({ message: "the warehouse is on fire" }); } catch (e) { console.warn("caught", e.message); }
      return { a, b };`;
    const { result, record } = await recordRun(code, (report) => buildHostFunctions([lab], { onCallInfo: report }).host);
    const value = valueOf(result);

    const start = recordStart(record);
    expect(start?.codeHash).toMatch(/^[0-9a-f]{14}$/);
    expect(start?.code).toBe(code);
    expect(start?.limits).toMatchObject({ wallMs: 5_000 });
    expect(start?.api.lab).toEqual(expect.arrayContaining(["echo", "sleep", "fail", "big", "flaky"]));

    const calls = recordedCalls(record);
    expect(calls.map((c) => `${c.callId}:${c.server}.${c.tool}:${c.outcome.kind}`)).toEqual(["1:lab.echo:value", "2:lab.sleep:value", "3:lab.fail:error"]);
    expect(calls[0]?.args).toEqual({ message: "one" });
    expect((calls[1]?.end ?? 0) - (calls[1]?.start ?? 0)).toBeGreaterThanOrEqual(25);
    expect(calls[2]?.outcome).toEqual({ kind: "error", error: "the warehouse is on fire" });
    expect(calls[0]?.info.resultBytes).toBeGreaterThan(0);
    expect(calls[2]?.info.isError).toBe(true);

    const logs = record.events.filter((e) => e.type === "log");
    expect(logs.map((e) => e.type === "log" && `${e.level}:${e.text}`)).toEqual(["log:starting", "warn:caught the warehouse is on fire"]);
    const end = recordEnd(record);
    expect(end).toMatchObject({ ok: true, value, stats: { hostCalls: 3 } });
    // Event log is in time order for engine events, and the record survives JSON unchanged.
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it("keeps too-large values as a size and a preview", () => {
    const recorder = new RunRecorder({ id: "big", code: "", maxValueChars: 100 });
    recorder.onEvent({ type: "call-start", callId: 1, namespace: "lab", name: "big", args: {}, time: 1 });
    recorder.onEvent({ type: "call-end", callId: 1, ok: true, value: "x".repeat(500), time: 2 });
    const record = recorder.finish({ ok: true, value: null, logs: [], stats: { wallMs: 3, hostCalls: 1, peakInFlight: 1 } });
    expect(recordedCalls(record)[0]?.outcome).toEqual({ kind: "truncated", truncated: { chars: 502, preview: JSON.stringify("x".repeat(500)) } });
  });
});

describe("redaction", () => {
  it("never lets a planted Authorization header or token in arguments reach an exported record", async () => {
    const secret = "sk-live-4242424242424242";
    const bearer = "Bearer eyJhbGciOiJIUzI1NiJ9.planted.signature";
    const echo = fakeTool((args) => ({ echoed: args, note: `used ${String(args.note)}` }));
    const code = `
      const headers = { Authorization: ${JSON.stringify(bearer)}, "x-api-key": ${JSON.stringify(secret)} };
      const out = await api.call({ headers, access_token: ${JSON.stringify(secret)}, note: ${JSON.stringify(bearer)}, query: "shoes" });
      console.log("sending", ${JSON.stringify(bearer)}, "token=${secret}");
      return out;`;
    const { record } = await recordRun(code, () => ({ api: { call: echo } }));
    // The tool really received the secrets (the sandbox is not the place that strips them)…
    expect(JSON.stringify(echo.calls)).toContain(secret);
    // …but the exported record holds none of them, anywhere (args, value, logs, code, result).
    const file = exportRunFile(record);
    expect(file).not.toContain(secret);
    expect(file).not.toContain("eyJhbGciOiJIUzI1NiJ9");
    expect(file).toContain('"query":"shoes"');
    const args = recordedCalls(record)[0]?.args as { headers: Record<string, string>; access_token: string };
    expect(args.headers.Authorization).toBe(REDACTED);
    expect(args.access_token).toBe(REDACTED);
  });

  it("scrubs credentials inside free text but leaves prose and code that only names them", () => {
    expect(scrubText("auth: Bearer abc.def.ghi then")).toBe("auth: Bearer [redacted] then");
    expect(scrubText('{"api_key":"k-123456789"}')).toBe('{"api_key":"[redacted]"}');
    expect(scrubText("password=hunter22 user=bob")).toBe("password=[redacted] user=bob");
    expect(scrubText("the token expired")).toBe("the token expired");
    expect(scrubText("const token = getToken();", { code: true })).toBe("const token = getToken();");
    expect(scrubText('const token = "ghp_abcdef123456";', { code: true })).toBe('const token = "[redacted]";');
  });
});
