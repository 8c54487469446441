/**
 * Helpers the host compiles into a run only when it needs them (describe a failure, serialize a
 * value that is not a primitive): compiling JavaScript in QuickJS costs about 0.1 µs per
 * character, so these stay out of the prelude every run pays for. Plain JavaScript strings for
 * the same reason as the prelude. The guest's own lazy parts are in guest-parts.ts.
 */
import { compactSource } from "./guest-prelude";

/**
 * describe(error, isToolError, primordials): a thrown value as JSON {name, message, stack, tool}
 * or {thrown}. Uses the built-ins the prelude took before the person's code ran.
 */
export const GUEST_DESCRIBE = compactSource(String.raw`(function describe(error, isToolError, { stringify }) {
  try {
    if (error !== null && typeof error === "object" && "message" in error) {
      const tool = isToolError(error) ? { callId: error.callId } : undefined;
      return stringify({ name: String(error.name), message: String(error.message), stack: typeof error.stack === "string" ? error.stack : undefined, tool });
    }
    if (typeof error === "string") return stringify({ thrown: stringify(error) });
    let text;
    try { text = stringify(error); } catch {}
    return stringify({ thrown: text ?? String(error) });
  } catch {
    return stringify({ thrown: "[a value that could not be described]" });
  }
})`);

/**
 * serialize(value, resultChars, primordials): "J<json>", "E<what is not JSON-safe and where>",
 * or "L" when the value is certainly larger than the limit (strings and keys alone exceed it),
 * found before JSON.stringify builds a giant string.
 */
export const GUEST_SERIALIZE = compactSource(String.raw`(function serialize(value, resultChars, { stringify, keys, isArray }) {
  let charsLeft = resultChars;
  const ancestors = [];
  const paths = [];
  function bad(path, what) {
    return { notJson: path + " is " + what };
  }
  function propertyPath(path, key) {
    return /^[A-Za-z_$][\w$]*$/.test(key) ? path + "." + key : path + "[" + stringify(key) + "]";
  }
  function check(input, path, key) {
    const value = input !== null && typeof input === "object" && typeof input.toJSON === "function" ? input.toJSON(key) : input;
    switch (typeof value) {
      case "bigint": throw bad(path, "a BigInt (" + value + "n); JSON has no BigInt, convert it with Number() or String()");
      case "symbol": throw bad(path, "a Symbol; JSON has no symbols");
      case "function": throw bad(path, "a function; functions cannot be returned");
      case "string": charsLeft -= value.length + 2; break;
      case "undefined": return;
      case "object": break;
      default: charsLeft -= 4;
    }
    if (charsLeft < 0) throw { tooLarge: true };
    if (value === null || typeof value !== "object") return;
    const at = ancestors.indexOf(value);
    if (at !== -1) throw bad(path, "a circular reference back to " + paths[at]);
    if (value instanceof Promise) throw bad(path, "a Promise (did you forget await?)");
    if (value instanceof Map) throw bad(path, "a Map; JSON has no Map, convert it with Object.fromEntries()");
    if (value instanceof Set) throw bad(path, "a Set; JSON has no Set, convert it with Array.from()");
    if (value instanceof Error) throw bad(path, "an Error; JSON drops its message, return error.message instead");
    ancestors.push(value);
    paths.push(path);
    if (isArray(value)) {
      for (let i = 0; i < value.length; i++) check(value[i], path + "[" + i + "]", String(i));
    } else {
      for (const name of keys(value)) {
        charsLeft -= name.length + 3;
        check(value[name], propertyPath(path, name), name);
      }
    }
    ancestors.pop();
    paths.pop();
  }
  try {
    check(value, "result", "");
  } catch (failure) {
    if (failure && failure.tooLarge) return "L";
    if (failure && typeof failure.notJson === "string") return "E" + failure.notJson;
    if (failure instanceof InternalError && /stack/.test(failure.message)) return "Eresult is nested too deeply to serialise";
    throw failure;
  }
  const json = stringify(value);
  return json === undefined ? "J" : "J" + json;
})`);
