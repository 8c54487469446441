import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { sandboxError } from "./errors";
import { utf8ByteLength } from "./utf8";
import type { SandboxError } from "./types";

/** A run's outcome before logs and stats are added. */
export type Outcome = { value: unknown } | { error: SandboxError };

/** Reads a primitive result straight from its handle, skipping the guest serializer. */
export function primitiveValue(context: QuickJSContext, handle: QuickJSHandle): { value: unknown } | undefined {
  switch (context.typeof(handle)) {
    case "undefined":
      return { value: null };
    case "number": {
      const n = context.getNumber(handle);
      // JSON has no NaN or Infinity: they become null, as JSON.stringify does.
      return { value: Number.isFinite(n) ? n : null };
    }
    case "string":
      return { value: context.getString(handle) };
    case "boolean":
      return { value: context.dump(handle) as boolean };
    default:
      return undefined;
  }
}

/** Checks a value read from the guest against the result size limit. */
export function checkSize(outcome: { value: unknown }, resultBytes: number): Outcome {
  const json = JSON.stringify(outcome.value) ?? "";
  return utf8ByteLength(json) > resultBytes ? { error: tooLarge(resultBytes) } : outcome;
}

/** Turns the guest serializer's answer ("J<json>", "E<why>", "L") into an outcome. */
export function fromSerialized(text: string, resultBytes: number): Outcome {
  if (text.startsWith("E")) return { error: sandboxError("serialization", `The result is not JSON-safe: ${text.slice(1)}`) };
  if (text === "L") return { error: tooLarge(resultBytes) };
  const json = text.slice(1);
  if (utf8ByteLength(json) > resultBytes) return { error: tooLarge(resultBytes) };
  if (json === "") return { value: null };
  try {
    return { value: JSON.parse(json) as unknown };
  } catch {
    // Only a guest that rewrote JSON.stringify on the prelude's own object can get here.
    return { error: sandboxError("serialization", "The result could not be read back as JSON") };
  }
}

function tooLarge(resultBytes: number): SandboxError {
  return sandboxError("limit", `The result is larger than the ${resultBytes}-byte limit`, { limit: "resultBytes" });
}

/** One call from the guest's outbox: callId, namespace, name, line as evaluated (0: unknown), args. */
export type GuestCall = [number, string, string, number, unknown?];

/** The guest's outbox, checked: a JSON array of [callId, namespace, name, line, args?]. */
export function parseCalls(json: string): GuestCall[] | undefined {
  try {
    const batch: unknown = JSON.parse(json);
    const valid =
      Array.isArray(batch) &&
      batch.every((c) => Array.isArray(c) && typeof c[0] === "number" && typeof c[1] === "string" && typeof c[2] === "string" && typeof c[3] === "number");
    return valid ? (batch as GuestCall[]) : undefined;
  } catch {
    return undefined;
  }
}
