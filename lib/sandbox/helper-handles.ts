import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import type { GuestErrorInfo } from "./guest-error";
import { GUEST_DESCRIBE, GUEST_SERIALIZE } from "./guest-helpers";
import { PRELUDE_FILENAME } from "./guest-prelude";
import type { RunBudget } from "./run-budget";

/** Helpers the prelude's setup returns (read from its object on first use), and those compiled on first use. */
export type HelperName = SetupHelperName | "describe" | "serialize";
type SetupHelperName = "drain" | "settle" | "fireTimer" | "primordials" | "isToolError";

const LAZY = { describe: GUEST_DESCRIBE, serialize: GUEST_SERIALIZE } as const;

/** The run's handles on guest helper functions; each guest call goes through the budget. */
export class HelperHandles {
  private readonly handles = new Map<HelperName, QuickJSHandle>();
  private setup: QuickJSHandle | undefined;

  constructor(
    private readonly context: QuickJSContext,
    private readonly budget: RunBudget,
  ) {}

  /** The object the prelude's setup returned; the handles keep it (disposed with them). */
  setSetup(handle: QuickJSHandle): void {
    this.setup = handle;
  }

  /** A helper of the setup's object, read once (most runs never need most of them). */
  get(name: SetupHelperName): QuickJSHandle | undefined {
    const known = this.handles.get(name);
    if (known || !this.setup?.alive) return known;
    const handle = this.context.getProp(this.setup, name);
    this.handles.set(name, handle);
    return handle;
  }

  /** The guest serializer's answer for a value ("J…", "E…", "L"), or the exception it threw. */
  serialize(value: QuickJSHandle, resultBytes: number): { text: string } | { error: QuickJSHandle } {
    const { context } = this;
    const serialize = this.lazy("serialize");
    const primordials = this.get("primordials") ?? context.undefined;
    const limit = context.newNumber(resultBytes);
    const result = this.budget.enter(() => context.callFunction(serialize, context.undefined, value, limit, primordials));
    limit.dispose();
    if (result.error) return { error: result.error };
    const text = context.getString(result.value);
    result.value.dispose();
    return { text };
  }

  /** A guest exception as plain data (the handle stays the caller's). */
  describe(handle: QuickJSHandle): GuestErrorInfo {
    const { context } = this;
    const isToolError = this.get("isToolError");
    const primordials = this.get("primordials");
    if (isToolError && primordials) {
      const describe = this.lazy("describe");
      const described = this.budget.enter(() => context.callFunction(describe, context.undefined, handle, isToolError, primordials));
      if (!described.error) {
        const json = context.getString(described.value);
        described.value.dispose();
        return parseDescription(json);
      }
      described.error.dispose();
      if (this.budget.fatal) return { thrown: "" };
    }
    // Before the prelude exists, or when describe() itself failed: the library's best effort.
    const dumped: unknown = context.dump(handle);
    if (typeof dumped === "object" && dumped !== null && "message" in dumped) {
      const { name, message, stack } = dumped as { name?: unknown; message?: unknown; stack?: unknown };
      return { name: String(name), message: String(message), stack: typeof stack === "string" ? stack : undefined };
    }
    return { thrown: String(dumped) };
  }

  /** Every handle, for disposal. */
  all(): QuickJSHandle[] {
    return [...this.handles.values(), ...(this.setup ? [this.setup] : [])];
  }

  /** Compiles a helper on first use (kept for the rest of the run). */
  private lazy(name: keyof typeof LAZY): QuickJSHandle {
    const known = this.handles.get(name);
    if (known) return known;
    const compiled = this.budget.enter(() => this.context.evalCode(LAZY[name], PRELUDE_FILENAME, { type: "global" }));
    if (compiled.error) {
      compiled.error.dispose();
      throw new Error(`The sandbox could not compile its ${name} helper`);
    }
    this.handles.set(name, compiled.value);
    return compiled.value;
  }
}

/** The guest's description, checked: what comes out of the guest is data to verify, not trust. */
function parseDescription(json: string): GuestErrorInfo {
  try {
    const info = JSON.parse(json) as Partial<{ name: unknown; message: unknown; stack: unknown; thrown: unknown; tool: { callId?: unknown } }>;
    if (typeof info.thrown === "string") return { thrown: info.thrown };
    const callId = typeof info.tool?.callId === "number" ? info.tool.callId : undefined;
    return {
      name: String(info.name),
      message: String(info.message),
      stack: typeof info.stack === "string" ? info.stack : undefined,
      tool: callId === undefined ? undefined : { callId },
    };
  } catch {
    return { thrown: "[a value that could not be described]" };
  }
}
