/**
 * The guest's parts compiled on first use: the prelude (guest-prelude.ts) defines the globals as
 * accessors, and the first read of one asks the host for its part (hostPart(name), which compiles
 * it under the prelude's file name, so mapStack drops its frames as it drops the prelude's). A run
 * that never calls a tool, sets a timer or logs never pays for them. Each is a function
 * expression the guest calls once, as part(p, config, hostSignal, hostLog, hostTimer, part):
 * `p` holds the built-ins the prelude took before the person's code ran (the parts use those,
 * never a global the code could have replaced), `part` gets another part.
 */
import { compactSource } from "./guest-prelude";

/**
 * The call bridge (see the contract in guest-prelude.ts): callTool, the tool namespaces, ids, the
 * outbox, drain() and settle(). invoke is not async and never awaits: each async frame and await
 * costs QuickJS jobs, and it runs per call. The Error a tool function makes is the call's trace:
 * its stack's first frame in the person's code is the call's line (callLine).
 */
const CALLS = compactSource(String.raw`(function calls(p, config, hostSignal) {
  "use strict";
  const { stringify, parse, defineProperty, hasOwn, freeze, Promise, Error, TypeError, Map, WeakSet, String, toInt, indexOf, substring } = p;
  const api = config.api;
  // QuickJS writes frames as "at name (file:line:column)"; the parenthesis skips function names.
  const codeFrame = "(" + config.codeFile + ":";
  const toolErrors = new WeakSet();
  function toolError(failure, tool) {
    const error = new Error(String(failure.message));
    error.name = "ToolError";
    error.tool = tool.namespace + "." + tool.name;
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
  // tool: the tool's entry, made once per tool: { namespace, name, head } where head is the
  // outbox's JSON of the two names.
  function invoke(tool, args, trace) {
    let argsJson;
    try {
      argsJson = args === undefined ? undefined : stringify(args);
    } catch (error) {
      return Promise.reject(error);
    }
    if (args !== undefined && argsJson === undefined) return Promise.reject(new TypeError(tool.namespace + "." + tool.name + ": arguments must be JSON-safe"));
    if (nextCallId > config.maxCalls) {
      hostSignal("limit");
      return new Promise(() => {});
    }
    const callId = nextCallId++;
    if (outbox === "") hostSignal("calls");
    else outbox += ",";
    outbox += "[" + callId + "," + tool.head + "," + callLine(trace) + (argsJson === undefined ? "" : "," + argsJson) + "]";
    return new Promise((resolve, reject) => pendingCalls.set(callId, { resolve, reject, tool }));
  }
  function callTool(namespace, name, args) {
    const names = hasOwn(api, namespace) ? api[namespace] : [];
    if (!names.includes(name)) return Promise.reject(new TypeError("Unknown tool " + String(namespace) + "." + String(name)));
    return invoke(entry(namespace, name), args, new Error());
  }
  const entry = (namespace, name) => ({ namespace, name, head: stringify(namespace) + "," + stringify(name) });
  // One frozen object of tool functions per namespace, made on its first read.
  const namespaces = new Map();
  function namespace(namespace) {
    let tools = namespaces.get(namespace);
    if (tools !== undefined) return tools;
    tools = {};
    for (const name of api[namespace]) {
      const tool = entry(namespace, name);
      const fn = function (args) { return invoke(tool, args, new Error()); };
      defineProperty(fn, "name", { value: name });
      tools[name] = fn;
    }
    namespaces.set(namespace, freeze(tools));
    return tools;
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
      if (status === 0) call.reject(toolError(payload, call.tool));
      else call.resolve(status === 2 ? undefined : payload);
    }
  }
  return { callTool, namespace, drain, settle, isToolError: (error) => toolErrors.has(error) };
})`);

/** setTimeout and clearTimeout behind the globals, and fire(id) for the host, which keeps the clock (hostTimer). */
const TIMERS = compactSource(String.raw`(function timers(p, config, hostSignal, hostLog, hostTimer) {
  "use strict";
  const { TypeError, RangeError, Map, Number, max } = p;
  const pending = new Map();
  let nextTimer = 1;
  function setTimeout(callback, ms, ...args) {
    if (typeof callback !== "function") throw new TypeError("setTimeout needs a function");
    if (pending.size >= 1000) throw new RangeError("Too many pending timers (1000)");
    const id = nextTimer++;
    pending.set(id, { callback, args });
    hostTimer(id, max(0, Number(ms) || 0));
    return id;
  }
  function clearTimeout(id) {
    if (pending.delete(id)) hostTimer(id, -1);
  }
  function fire(id) {
    const timer = pending.get(id);
    if (!timer) return;
    pending.delete(id);
    timer.callback(...timer.args);
  }
  return { setTimeout, clearTimeout, fire };
})`);

/**
 * The console object. Formats objects with inspect (compiled on the first non-string argument),
 * stops formatting once the log budget is spent (hostLog answers false).
 */
const CONSOLE = compactSource(String.raw`(function console(p, config, hostSignal, hostLog, hostTimer, part) {
  "use strict";
  const { Error } = p;
  let logCharsLeft = config.logChars;
  function emit(level, args) {
    if (logCharsLeft < 0) return;
    let text = "";
    for (let i = 0; i < args.length && text.length <= logCharsLeft; i++) {
      const arg = args[i];
      text += (i === 0 ? "" : " ") + (typeof arg === "string" ? arg : arg instanceof Error && typeof arg.stack === "string" ? part("inspect")(arg) + "\n" + arg.stack : part("inspect")(arg));
    }
    // One character past the budget is enough for the host to see the overflow and mark it.
    if (text.length > logCharsLeft) text = text.slice(0, logCharsLeft + 1);
    logCharsLeft -= text.length;
    if (!hostLog(level, text)) logCharsLeft = -1;
  }
  const log = (...args) => emit("log", args);
  const debug = (...args) => emit("debug", args);
  return {
    log, debug,
    info: (...args) => emit("info", args),
    warn: (...args) => emit("warn", args),
    error: (...args) => emit("error", args),
    dir: log, table: log, trace: debug,
  };
})`);

/**
 * Console formatting, compiled on the first non-string argument a console method gets.
 * JSON-like: JSON-safe values print exactly as JSON.stringify would; others print as markers
 * ([Function f], [Circular], 10n, Map(1) {k => v}, undefined), with depth and length caps.
 */
const INSPECT = compactSource(String.raw`(function makeInspect(p) {
  const { stringify, keys, isArray, is, isNaN, isView, String, Error, Date, RegExp, Promise, Map, Set } = p;
  const MAX_DEPTH = 6;
  const MAX_ITEMS = 100;
  const MAX_NESTED_STRING = 10000;
  function quote(text) {
    return stringify(text.length > MAX_NESTED_STRING ? text.slice(0, MAX_NESTED_STRING) + "…" : text);
  }
  function inspect(value, depth, seen) {
    switch (typeof value) {
      case "string": return quote(value);
      case "number": return is(value, -0) ? "-0" : String(value);
      case "bigint": return String(value) + "n";
      case "boolean": return String(value);
      case "undefined": return "undefined";
      case "symbol": return value.toString();
      case "function": return "[Function " + (value.name || "(anonymous)") + "]";
    }
    if (value === null) return "null";
    if (seen.includes(value)) return "[Circular]";
    if (value instanceof Error) return String(value.name) + ": " + String(value.message);
    if (value instanceof Date) return isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
    if (value instanceof RegExp) return String(value);
    if (value instanceof Promise) return "Promise {}";
    if (depth >= MAX_DEPTH) return isArray(value) ? "[Array]" : "[Object]";
    seen.push(value);
    try {
      if (value instanceof Map || value instanceof Set) {
        const parts = [];
        for (const entry of value) {
          if (parts.length === MAX_ITEMS) { parts.push("…"); break; }
          parts.push(value instanceof Map ? inspect(entry[0], depth + 1, seen) + " => " + inspect(entry[1], depth + 1, seen) : inspect(entry, depth + 1, seen));
        }
        return (value instanceof Map ? "Map" : "Set") + "(" + value.size + ") {" + parts.join(",") + "}";
      }
      if (isArray(value) || isView(value)) {
        const parts = [];
        const length = value.length ?? 0;
        for (let i = 0; i < length && i < MAX_ITEMS; i++) parts.push(inspect(value[i], depth + 1, seen));
        if (length > MAX_ITEMS) parts.push("… " + (length - MAX_ITEMS) + " more items");
        return "[" + parts.join(",") + "]";
      }
      const parts = [];
      const names = keys(value);
      for (const key of names.slice(0, MAX_ITEMS)) {
        let text;
        try { text = inspect(value[key], depth + 1, seen); } catch { text = "[Getter threw]"; }
        parts.push(quote(key) + ":" + text);
      }
      if (names.length > MAX_ITEMS) parts.push("… " + (names.length - MAX_ITEMS) + " more keys");
      return "{" + parts.join(",") + "}";
    } finally {
      seen.pop();
    }
  }
  return (value) => inspect(value, 0, []);
})`);

/** The sources hostPart(name) compiles for the guest. */
export const GUEST_PARTS: Readonly<Record<string, string>> = Object.freeze({ calls: CALLS, timers: TIMERS, console: CONSOLE, inspect: INSPECT });
