import { describe, expect, it } from "vitest";
import { otlpTraces, runRecordSpan } from "@/lib/timeline/otlp";
import { RUN_FILE_FORMAT, RUN_FILE_VERSION, type RunRecord } from "@/lib/timeline/run-record";
import { NO_RUN_STATS } from "@/lib/sandbox/errors";

const record: RunRecord = {
  format: RUN_FILE_FORMAT,
  version: RUN_FILE_VERSION,
  id: "run-1",
  startedAt: "2026-11-23T10:00:00.000Z",
  events: [
    { type: "start", time: 0, codeHash: "h", limits: {}, api: { shipping: ["get_quote"] } },
    { type: "call-start", time: 2, callId: 1, namespace: "shipping", name: "get_quote", args: { carrier: "postal" } },
    { type: "call-info", time: 3, callId: 1, info: { server: "shipping", tool: "get_quote", source: "live" } },
    { type: "call-start", time: 2.5, callId: 2, namespace: "shipping", name: "get_quote", args: { carrier: "nope" } },
    { type: "call-end", time: 40, callId: 1, ok: true, value: { price: 26 } },
    { type: "call-end", time: 41, callId: 2, ok: false, error: "Unknown carrier nope" },
    { type: "end", time: 45, ok: true, value: 1, stats: NO_RUN_STATS },
  ],
};

describe("OpenTelemetry export (OTLP JSON)", () => {
  it("a recorded run becomes a root span with a child per tool call, timed from the run's start", () => {
    const root = runRecordSpan(record);
    const start = Date.parse(record.startedAt);
    expect(root).toMatchObject({ name: "execute_code", startMs: start, endMs: start + 45 });
    expect(root.children).toEqual([
      expect.objectContaining({
        name: "shipping.get_quote",
        startMs: start + 2,
        endMs: start + 40,
        attributes: expect.objectContaining({ "gen_ai.tool.name": "get_quote", "mcp.server.name": "shipping" }) as unknown,
      }),
      expect.objectContaining({ error: "Unknown carrier nope" }),
    ]);
  });

  it("the document is an ExportTraceServiceRequest: hex ids, nanosecond strings, parents, statuses, typed attributes, no arguments or results", () => {
    const doc = otlpTraces([runRecordSpan(record), runRecordSpan({ ...record, id: "run-2" })]);
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(doc.resourceSpans[0]!.resource.attributes).toEqual([{ key: "service.name", value: { stringValue: "code-mode-playground" } }]);
    expect(spans).toHaveLength(6);
    const [root, ok, failed] = spans;
    expect(root!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root!.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(root!.parentSpanId).toBeUndefined();
    expect(ok!.parentSpanId).toBe(root!.spanId);
    expect(ok!.traceId).toBe(root!.traceId);
    expect(spans[3]!.traceId).not.toBe(root!.traceId);
    expect(root!.startTimeUnixNano).toBe(`${Date.parse(record.startedAt)}000000`);
    expect(ok!.endTimeUnixNano).toBe(`${Date.parse(record.startedAt) + 40}000000`);
    expect(ok!.status).toEqual({ code: 1 });
    expect(failed!.status).toEqual({ code: 2, message: "Unknown carrier nope" });
    expect(root!.attributes).toContainEqual({ key: "cmp.run.calls", value: { intValue: "2" } });
    expect(JSON.stringify(doc)).not.toContain("postal");
  });
});
