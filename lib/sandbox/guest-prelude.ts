/**
 * The guest half of the bridge, evaluated in every fresh context before the person's code.
 *
 * It is plain JavaScript in a string because it runs inside QuickJS, not in the host: the
 * host's bundler must not rewrite it. It evaluates to a setup function that receives the three
 * raw host functions and returns the helpers the engine calls (settle calls, fire a timer, tell
 * a ToolError). The raw host functions stay in its closure and never become globals.
 *
 * Kept small: every run compiles it, and QuickJS compiles at roughly 0.1 µs per character, which
 * was most of a `return 1` run. So the setup only defines the globals, as accessors whose first
 * read builds what stands behind them (the call bridge and tool namespaces, timers, console) from
 * parts the host compiles on request, hostPart(name) (guest-parts.ts). The parts receive the
 * built-ins they use as `p`, taken here before the person's code could replace them.
 *
 * Contract with the engine (guest-run.ts). Calls cross in batches both ways, because every
 * crossing of the library's function trampoline costs more than the call bookkeeping itself:
 * - A tool call gets its id here (1, 2, …) and waits in an outbox; the first call into an
 *   empty outbox signals hostSignal("calls"), and once the guest yields the engine takes the
 *   batch with drain(): a JSON array of [callId, namespace, name, line, args?]. Over the
 *   maxCalls budget the guest signals hostSignal("limit") instead, and the engine ends the run.
 * - `line` is the line of the first stack frame in the person's code (the file config.codeFile)
 *   as evaluated, 0 when there is none; the engine maps it to the line as written. It comes
 *   from `new Error().stack`, which QuickJS formats in full at construction (about 1.2 µs per
 *   frame; it has no stackTraceLimit or captureStackTrace to make it cheaper). So the Error is
 *   made in the tool function itself, the one prelude frame the person's code enters, and
 *   parsed with built-ins bound at setup so the person's code cannot replace them under us.
 * - The engine answers with settle(batchJson), a JSON array of [callId, status, payload]:
 *   status 1 resolves with payload, 2 resolves with undefined, 0 rejects with
 *   {message, callId}. Promises are made here, so the host holds no guest handle per call.
 * - hostLog(level, text) returns false once the log budget is spent (the guest then stops
 *   formatting); hostTimer(id, ms) schedules a timer, ms < 0 cancels it.
 */
export const PRELUDE_FILENAME = "sandbox-prelude.js";

/**
 * Drops indentation before the guest compiles a source (QuickJS compiles at roughly 0.1 µs per
 * character). Safe only for sources without multi-line strings, which these are.
 */
export function compactSource(source: string): string {
  return source
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("//"))
    .join("\n");
}

/** The setup function's source (see the contract above). */
export const GUEST_PRELUDE = compactSource(String.raw`(function setup(hostSignal, hostLog, hostTimer, hostPart, configJson) {
  "use strict";
  const { defineProperty, keys } = Object;
  const callOf = Function.prototype.call;
  const p = {
    stringify: JSON.stringify, parse: JSON.parse, keys, defineProperty, hasOwn: Object.hasOwn, freeze: Object.freeze, isArray: Array.isArray,
    Promise, Error, TypeError, RangeError, Map, Set, WeakSet, String, Number, Date, RegExp,
    is: Object.is, isNaN, isView: ArrayBuffer.isView, max: Math.max, toInt: parseInt,
    indexOf: callOf.bind(String.prototype.indexOf), substring: callOf.bind(String.prototype.substring),
  };
  const config = p.parse(configJson);
  // No prototype: a setter the person's code put on Object.prototype must not see the parts.
  const made = { __proto__: null };
  const part = (name) => made[name] ??= hostPart(name)(p, config, hostSignal, hostLog, hostTimer, part);
  // A getter with no setter, not a non-writable value: QuickJS lets Object.defineProperty
  // replace the value of a non-writable, non-configurable global, but not an accessor.
  function defineGlobal(key, get, enumerable, set) {
    if (key in globalThis) throw new p.Error("Cannot define global \"" + key + "\": the name is already taken");
    defineProperty(globalThis, key, { get, set, configurable: set !== undefined, enumerable });
  }
  const fromPart = (key, name) => defineGlobal(key, () => part(name)[key], false);
  fromPart("callTool", "calls");
  fromPart("setTimeout", "timers");
  fromPart("clearTimeout", "timers");
  // An accessor pair, as Node's own console is, so the person's code may still replace it.
  let replaced;
  defineGlobal("console", () => (replaced ? replaced.value : part("console")), false, (value) => { replaced = { value }; });
  // Built-in globals first, so a namespace or data key named like one of them is refused.
  for (const namespace of keys(config.api)) defineGlobal(namespace, () => part("calls").namespace(namespace), false);
  for (const key of keys(config.data)) {
    const value = config.data[key];
    defineGlobal(key, () => value, true);
  }
  return {
    drain: () => part("calls").drain(),
    settle: (batchJson) => part("calls").settle(batchJson),
    fireTimer: (id) => part("timers").fire(id),
    primordials: p,
    isToolError: (error) => made.calls !== undefined && made.calls.isToolError(error),
  };
})`);
