/**
 * The zod schema of a run file (version 1), checked on import. It mirrors run-record.ts; the
 * type test at the bottom keeps the two in step. Values the code exchanged (arguments,
 * results) are `unknown`: any JSON is valid there, and the UI renders them as text.
 */
import * as z from "zod";
import { RUN_FILE_FORMAT, RUN_FILE_VERSION, type RunRecord } from "./run-record";

const time = z.number().min(0);
const callId = z.number().int().positive();
const finding = z.object({ path: z.string(), message: z.string() });
const stats = z.object({ wallMs: z.number().min(0), hostCalls: z.number().int().min(0), peakInFlight: z.number().int().min(0) });
const limitNames = ["memoryBytes", "stackBytes", "cpuMs", "wallMs", "callTimeoutMs", "maxConcurrency", "maxCalls", "resultBytes", "logBytes"] as const;

const sandboxError = z.object({
  kind: z.enum(["syntax", "runtime", "timeout", "memory", "stack", "tool", "limit", "cancelled", "serialization", "busy"]),
  message: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  stack: z.string().optional(),
  call: z.object({ callId, namespace: z.string(), name: z.string() }).optional(),
  limit: z.enum(["maxCalls", "resultBytes", "logBytes"]).optional(),
  clock: z.enum(["cpu", "wall", "call"]).optional(),
});

const start = z.object({
  type: z.literal("start"),
  time,
  codeHash: z.string(),
  code: z.string().optional(),
  limits: z.partialRecord(z.enum(limitNames), z.number().positive()),
  api: z.record(z.string(), z.array(z.string())),
  names: z.array(z.object({ namespace: z.string(), server: z.string(), tools: z.array(z.object({ fn: z.string(), tool: z.string() })) })).optional(),
  replayOf: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

const callInfo = z.object({
  server: z.string().optional(),
  tool: z.string().optional(),
  validation: z.string().optional(),
  argumentWarnings: z.array(z.string()).optional(),
  outputFindings: z.array(finding).optional(),
  resultBytes: z.number().int().min(0).optional(),
  isError: z.boolean().optional(),
  source: z.enum(["live", "mock", "replay"]).optional(),
  serverRequests: z
    .array(
      z.object({
        kind: z.enum(["elicitation", "sampling"]),
        message: z.string().max(10_000),
        state: z.enum(["waiting", "accept", "decline", "cancel"]),
        round: z.number().int().min(1).max(100).optional(),
      }),
    )
    .max(100)
    .optional(),
  capWait: z.object({ cap: z.number().int().positive(), state: z.enum(["waiting", "done"]), waitedMs: z.number().min(0).optional() }).optional(),
  task: z
    .object({
      taskId: z.string().max(1_000),
      status: z.enum(["working", "input_required", "completed", "failed", "cancelled"]),
      messages: z.array(z.string().max(10_000)).max(100),
      polls: z.number().int().min(0),
    })
    .optional(),
  line: z.number().int().positive().optional(),
  parent: z.number().int().positive().optional(),
});

const callEnd = z.discriminatedUnion("ok", [
  z.object({
    type: z.literal("call-end"),
    time,
    callId,
    ok: z.literal(true),
    value: z.unknown().optional(),
    truncated: z.object({ chars: z.number().int().min(0), preview: z.string() }).optional(),
  }),
  z.object({ type: z.literal("call-end"), time, callId, ok: z.literal(false), error: z.string() }),
]);

const end = z.discriminatedUnion("ok", [
  z.object({ type: z.literal("end"), time, ok: z.literal(true), value: z.unknown(), stats }),
  z.object({ type: z.literal("end"), time, ok: z.literal(false), error: sandboxError, stats }),
]);

const event = z.discriminatedUnion("type", [
  start,
  z.object({
    type: z.literal("call-start"),
    time,
    callId,
    namespace: z.string(),
    name: z.string(),
    args: z.unknown().optional(),
    line: z.number().int().positive().optional(),
  }),
  z.object({ type: z.literal("call-info"), time, callId, info: callInfo }),
  z.object({ type: z.literal("progress"), time, callId, progress: z.number(), total: z.number().optional(), message: z.string().optional() }),
  z.object({ type: z.literal("approval"), time, callId, state: z.enum(["waiting", "approved", "denied"]) }),
  callEnd,
  z.object({ type: z.literal("log"), time, level: z.enum(["log", "info", "warn", "error", "debug"]), text: z.string() }),
  end,
]);

/** Just the header, read first so a wrong format or version gets its own message. */
export const runFileHeaderSchema = z.object({ format: z.string(), version: z.unknown() });

/** A whole version-1 run file. */
export const runRecordSchema = z.object({
  format: z.literal(RUN_FILE_FORMAT),
  version: z.literal(RUN_FILE_VERSION),
  id: z.string().min(1),
  title: z.string().optional(),
  startedAt: z.string(),
  events: z.array(event).min(1),
  // Read strictly where shown (readRecordedApp: its shape, the HTML cap, the policy checked again).
  apps: z.record(z.string(), z.unknown()).optional(),
});

// Compile-time check that what the schema accepts is a RunRecord.
type Accepted = z.infer<typeof runRecordSchema>;
export type SchemaMatchesRecord = Accepted extends RunRecord ? true : never;
const schemaMatchesRecord: SchemaMatchesRecord = true;
void schemaMatchesRecord;
