/**
 * The guest half of the bridge, evaluated in every fresh context before the person's code.
 *
 * It is plain JavaScript in a string because it runs inside QuickJS, not in the host: the
 * host's bundler must not rewrite it. It evaluates to a setup function that receives the three
 * raw host functions and returns the helpers the engine calls (settle calls, fire a timer, tell
 * a ToolError). The raw host functions stay in its closure and never become globals. Kept
 * small: every run compiles it (see guest-helpers.ts for what is compiled only on demand).
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
    .join("\n");
}

/** The setup function's source (see the contract above). */
export const GUEST_PRELUDE = compactSource(String.raw`(function setup(hostSignal, hostLog, hostTimer, configJson, inspectSource) {
  "use strict";
  const { stringify, parse } = JSON;
  const { defineProperty, keys, freeze, hasOwn } = Object;
  const isArray = Array.isArray;
  const NativePromise = Promise;
  const NativeError = Error;
  const toInt = parseInt;
  const callOf = Function.prototype.call;
  const indexOf = callOf.bind(String.prototype.indexOf);
  const substring = callOf.bind(String.prototype.substring);
  const config = parse(configJson);
  // QuickJS writes frames as "at name (file:line:column)"; the parenthesis skips function names.
  const codeFrame = "(" + config.codeFile + ":";
  const indirectEval = eval;
  let inspect;

  const toolErrors = new WeakSet();
  function toolError(failure, namespace, name) {
    const error = new Error(String(failure.message));
    error.name = "ToolError";
    error.tool = namespace + "." + name;
    error.callId = failure.callId;
    toolErrors.add(error);
    return error;
  }

  const pendingCalls = new Map();
  // A string, not an array: the person's code may have replaced Array.prototype.push or join.
  let outbox = "";
  let nextCallId = 1;
  function callLine(trace) {
    const stack = trace.stack;
    if (typeof stack !== "string") return 0;
    const at = indexOf(stack, codeFrame);
    if (at < 0) return 0;
    const from = at + codeFrame.length;
    return toInt(substring(stack, from, from + 10), 10) || 0;
  }
  // Not async, and no await: each async frame and await costs QuickJS jobs, and this runs per call.
  // trace: a new Error made by the tool function the person's code called (see callLine).
  function invoke(namespace, name, args, trace) {
    let argsJson;
    try {
      argsJson = args === undefined ? undefined : stringify(args);
    } catch (error) {
      return NativePromise.reject(error);
    }
    if (args !== undefined && argsJson === undefined) return NativePromise.reject(new TypeError(namespace + "." + name + ": arguments must be JSON-safe"));
    if (nextCallId > config.maxCalls) {
      hostSignal("limit");
      return new NativePromise(() => {});
    }
    const callId = nextCallId++;
    if (outbox === "") hostSignal("calls");
    else outbox += ",";
    outbox += "[" + callId + "," + stringify(namespace) + "," + stringify(name) + "," + callLine(trace) + (argsJson === undefined ? "" : "," + argsJson) + "]";
    return new NativePromise((resolve, reject) => pendingCalls.set(callId, { resolve, reject, namespace, name }));
  }
  function drain() {
    const batch = "[" + outbox + "]";
    outbox = "";
    return batch;
  }
  function settle(batchJson) {
    for (const [callId, status, payload] of parse(batchJson)) {
      const call = pendingCalls.get(callId);
      if (!call) continue;
      pendingCalls.delete(callId);
      if (status === 0) call.reject(toolError(payload, call.namespace, call.name));
      else call.resolve(status === 2 ? undefined : payload);
    }
  }

  // A getter with no setter, not a non-writable value: QuickJS lets Object.defineProperty
  // replace the value of a non-writable, non-configurable global, but not an accessor.
  function defineGlobal(key, value, enumerable) {
    if (key in globalThis) throw new Error("Cannot define global \"" + key + "\": the name is already taken");
    defineProperty(globalThis, key, { get: () => value, configurable: false, enumerable });
  }

  const api = config.api;
  defineGlobal("callTool", function callTool(namespace, name, args) {
    const names = hasOwn(api, namespace) ? api[namespace] : [];
    if (!names.includes(name)) return NativePromise.reject(new TypeError("Unknown tool " + String(namespace) + "." + String(name)));
    return invoke(namespace, name, args, new NativeError());
  }, false);

  let logCharsLeft = config.logChars;
  function emit(level, args) {
    if (logCharsLeft < 0) return;
    let text = "";
    for (let i = 0; i < args.length && text.length <= logCharsLeft; i++) {
      const arg = args[i];
      if (typeof arg !== "string") inspect ??= indirectEval(inspectSource)(stringify, keys, isArray);
      text += (i === 0 ? "" : " ") + (typeof arg === "string" ? arg : arg instanceof Error && typeof arg.stack === "string" ? inspect(arg) + "\n" + arg.stack : inspect(arg));
    }
    // One character past the budget is enough for the host to see the overflow and mark it.
    if (text.length > logCharsLeft) text = text.slice(0, logCharsLeft + 1);
    logCharsLeft -= text.length;
    if (!hostLog(level, text)) logCharsLeft = -1;
  }
  const log = (...args) => emit("log", args);
  const debug = (...args) => emit("debug", args);
  defineProperty(globalThis, "console", {
    value: {
      log, debug,
      info: (...args) => emit("info", args),
      warn: (...args) => emit("warn", args),
      error: (...args) => emit("error", args),
      dir: log, table: log, trace: debug,
    },
    writable: true, configurable: true, enumerable: false,
  });

  const timers = new Map();
  let nextTimer = 1;
  defineGlobal("setTimeout", function setTimeout(callback, ms, ...args) {
    if (typeof callback !== "function") throw new TypeError("setTimeout needs a function");
    if (timers.size >= 1000) throw new RangeError("Too many pending timers (1000)");
    const id = nextTimer++;
    timers.set(id, { callback, args });
    hostTimer(id, Math.max(0, Number(ms) || 0));
    return id;
  }, false);
  defineGlobal("clearTimeout", function clearTimeout(id) {
    if (timers.delete(id)) hostTimer(id, -1);
  }, false);
  function fireTimer(id) {
    const timer = timers.get(id);
    if (!timer) return;
    timers.delete(id);
    timer.callback(...timer.args);
  }

  // Built-in globals first, so a namespace or data key named like one of them is refused.
  for (const namespace of keys(api)) {
    const tools = {};
    for (const name of api[namespace]) {
      const fn = function (args) { return invoke(namespace, name, args, new NativeError()); };
      defineProperty(fn, "name", { value: name });
      tools[name] = fn;
    }
    defineGlobal(namespace, freeze(tools), false);
  }
  for (const key of keys(config.data)) defineGlobal(key, config.data[key], true);

  // The built-ins the lazily compiled helpers use, taken before the person's code could replace them.
  const primordials = freeze({ stringify, keys, isArray });
  return { drain, settle, fireTimer, primordials, isToolError: (error) => toolErrors.has(error) };
})`);
