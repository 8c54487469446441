import { sandboxError } from "./errors";
import type { CallRecord } from "./call-scheduler";
import { CODE_FILENAME, LINE_ONE_COLUMN_SHIFT } from "./normalise";
import { PRELUDE_FILENAME } from "./guest-prelude";
import type { SandboxError } from "./types";
import { missingToolMessage, missingToolOnLine } from "./missing-tool";

/** A guest exception as the prelude's describe() reports it. */
export type GuestErrorInfo = { name: string; message: string; stack?: string; tool?: { callId?: number } } | { thrown: string };

/** Where the error surfaced: compiling the code, or running it. */
export interface GuestErrorContext {
  compiling: boolean;
  lineOffset: number;
  callRecord: (callId: number) => CallRecord | undefined;
  /** The source that ran and the tools of each namespace: a call of a tool that is not there is named as such. */
  source?: string;
  api?: Readonly<Record<string, readonly string[]>>;
}

const MEMORY_MESSAGES = new Set(["out of memory", "string too long"]);
// The second is V8's, when a host function the guest called ran out of host stack.
const STACK_MESSAGES = new Set(["stack overflow", "Maximum call stack size exceeded"]);
const FRAME = new RegExp(`${escapeRegExp(CODE_FILENAME)}:(\\d+)(?::(\\d+))?`, "g");

/** Classifies an uncaught guest exception into a SandboxError kind, with lines as written. */
export function classifyGuestError(info: GuestErrorInfo, context: GuestErrorContext): SandboxError {
  if ("thrown" in info) return sandboxError("runtime", `Uncaught ${info.thrown}`);
  const stack = info.stack === undefined ? undefined : mapStack(info.stack, context.lineOffset);
  const where = firstCodeFrame(info.stack ?? "", context.lineOffset);

  const callId = info.tool?.callId;
  const record = callId === undefined ? undefined : context.callRecord(callId);
  if (record) {
    const call = { callId: record.callId, namespace: record.namespace, name: record.name };
    const message = `${record.namespace}.${record.name}: ${info.message}`;
    if (record.timedOut) return sandboxError("timeout", message, { clock: "call", call, line: where?.line, stack });
    return sandboxError("tool", message, { call, line: where?.line, stack });
  }
  if (MEMORY_MESSAGES.has(info.message)) {
    const detail = info.message === "string too long" ? ": a string grew past the longest QuickJS allows" : "";
    return sandboxError("memory", `Out of memory${detail}`, { line: where?.line });
  }
  if (STACK_MESSAGES.has(info.message)) return sandboxError("stack", "Stack overflow: recursion too deep", { line: where?.line });
  if (context.compiling && info.name === "SyntaxError") {
    return sandboxError("syntax", info.message, { line: where?.line, column: where?.column });
  }
  const missing = info.name === "TypeError" && info.message === "not a function" ? missingToolAt(info.stack, context) : undefined;
  if (missing) return sandboxError("runtime", `TypeError: ${missing}`, { line: where?.line, stack });
  return sandboxError("runtime", `${info.name}: ${info.message}`, { line: where?.line, stack });
}

/** The missing tool the failing line calls, from the stack's first frame in the code (lines as the source ran). */
function missingToolAt(stack: string | undefined, context: GuestErrorContext): string | undefined {
  if (!stack || !context.source || !context.api) return undefined;
  const frame = new RegExp(FRAME.source).exec(stack);
  const line = frame ? context.source.split("\n")[Number(frame[1]) - 1] : undefined;
  const found = line === undefined ? undefined : missingToolOnLine(line, context.api);
  return found ? missingToolMessage(found.namespace, found.name, context.api[found.namespace] ?? []) : undefined;
}

/**
 * Rewrites `code.js:L:C` frames to the lines as written. Drops the prelude's frames and the
 * wrapper's `<eval>` frame: neither is code the person wrote. Undefined when nothing is left.
 */
export function mapStack(stack: string, lineOffset: number): string | undefined {
  const mapped = stack
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.includes(PRELUDE_FILENAME) && !line.includes("at <eval>"))
    .map((line) =>
      line.replace(FRAME, (_match, l: string, c: string | undefined) => {
        const mapped = mapPosition(Number(l), c === undefined ? undefined : Number(c), lineOffset);
        return `${CODE_FILENAME}:${mapped.line}${mapped.column === undefined ? "" : `:${mapped.column}`}`;
      }),
    )
    .join("\n");
  return mapped === "" ? undefined : mapped;
}

function firstCodeFrame(stack: string, lineOffset: number): { line: number; column?: number } | undefined {
  FRAME.lastIndex = 0;
  const match = FRAME.exec(stack);
  FRAME.lastIndex = 0;
  if (!match) return undefined;
  return mapPosition(Number(match[1]), match[2] === undefined ? undefined : Number(match[2]), lineOffset);
}

/** A line of the evaluated source (`code.js`) as the person wrote it: fence lines put back. */
export function writtenLine(line: number, lineOffset: number): number {
  // The wrapper shares line 1 and adds no lines (normalise.ts), so only the fence shifts lines.
  return line + lineOffset;
}

function mapPosition(line: number, column: number | undefined, lineOffset: number): { line: number; column?: number } {
  const written = writtenLine(line, lineOffset);
  if (column === undefined) return { line: written };
  return { line: written, column: line === 1 ? Math.max(1, column - LINE_ONE_COLUMN_SHIFT) : column };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
