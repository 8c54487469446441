/**
 * Runs as OpenTelemetry traces, in OTLP JSON (an ExportTraceServiceRequest), so they open in the
 * tracing tools people already use (Jaeger, Tempo, Honeycomb, Langfuse...): a root span per run,
 * a child per model step and per tool call, with the GenAI semantic conventions' attribute names
 * (gen_ai.operation.name, gen_ai.request.model, gen_ai.usage.input_tokens, gen_ai.tool.name).
 * Arguments and results are not exported: a trace tells what happened and how long it took.
 */
import { recordedCalls, recordEnd, type RunRecord } from "./run-record";

/** A span to export; children are nested under it. Times are epoch milliseconds. */
export interface TraceSpan {
  name: string;
  startMs: number;
  endMs: number;
  attributes?: Record<string, string | number | boolean | undefined>;
  /** Set when the operation failed: the span's status is ERROR with this message. */
  error?: string;
  children?: TraceSpan[];
}

type OtlpValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };

/** One OTLP span as JSON. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: OtlpValue }>;
  status: { code: number; message?: string };
}

/** The OTLP JSON document (ExportTraceServiceRequest). */
export interface OtlpTraces {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: OtlpValue }> };
    scopeSpans: Array<{ scope: { name: string; version: string }; spans: OtlpSpan[] }>;
  }>;
}

const SPAN_KIND_INTERNAL = 1;
const SPAN_KIND_CLIENT = 3;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

/** Random hex ids (trace 16 bytes, span 8), from Web Crypto (browser and Node). */
function hexId(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

function value(v: string | number | boolean): OtlpValue {
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
}

const nanos = (ms: number) => `${BigInt(Math.round(ms * 1_000)) * 1_000n}`;

/** Flattens span trees into one OTLP document; each root starts its own trace. */
export function otlpTraces(roots: readonly TraceSpan[], service = "code-mode-playground"): OtlpTraces {
  const spans: OtlpSpan[] = [];
  const visit = (span: TraceSpan, traceId: string, parent: string | undefined) => {
    const spanId = hexId(8);
    spans.push({
      traceId,
      spanId,
      ...(parent ? { parentSpanId: parent } : {}),
      name: span.name,
      kind: span.attributes?.["gen_ai.operation.name"] === "chat" ? SPAN_KIND_CLIENT : SPAN_KIND_INTERNAL,
      startTimeUnixNano: nanos(span.startMs),
      endTimeUnixNano: nanos(Math.max(span.startMs, span.endMs)),
      attributes: Object.entries(span.attributes ?? {}).flatMap(([key, v]) => (v === undefined ? [] : [{ key, value: value(v) }])),
      status: span.error === undefined ? { code: STATUS_OK } : { code: STATUS_ERROR, message: span.error },
    });
    for (const child of span.children ?? []) visit(child, traceId, spanId);
  };
  for (const root of roots) visit(root, hexId(16), undefined);
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: service } }] },
        scopeSpans: [{ scope: { name: service, version: "0.1.0" }, spans }],
      },
    ],
  };
}

/** A recorded run (the timeline's record) as a span tree: the program's run, a child per tool call. */
export function runRecordSpan(record: RunRecord): TraceSpan {
  const start = Date.parse(record.startedAt);
  const end = recordEnd(record);
  const calls = recordedCalls(record);
  const last = Math.max(end?.time ?? 0, ...calls.map((c) => c.end ?? c.start));
  return {
    name: record.title ? `run ${record.title}` : "execute_code",
    startMs: start,
    endMs: start + last,
    attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "execute_code", "cmp.run.id": record.id, "cmp.run.calls": calls.length },
    ...(end && !end.ok ? { error: `${end.error.kind}: ${end.error.message}` } : {}),
    children: calls.map((call) => ({
      name: `${call.server}.${call.tool}`,
      startMs: start + call.start,
      endMs: start + (call.end ?? last),
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": call.tool,
        "mcp.server.name": call.server,
        "cmp.call.id": call.callId,
        "cmp.call.source": call.info.source,
      },
      ...(call.outcome.kind === "error" ? { error: call.outcome.error } : call.outcome.kind === "pending" ? { error: "unfinished: the run ended first" } : {}),
    })),
  };
}
