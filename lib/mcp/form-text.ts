/**
 * Text forms of the map fields a server form edits: headers as `Name: value` lines, env as
 * `KEY=value` lines, args one per line, and a pasted command line split into its words. Pure, so
 * the form's parsing is unit-tested.
 */
import { parse as parseShellWords } from "shell-quote";

/** Parses `Name: value` lines; blank lines are skipped; a line without a colon is an error. */
export function parseHeaderLines(text: string): { ok: true; value: Record<string, string> } | { ok: false; message: string } {
  return parsePairs(text, ":", "Name: value");
}

/** Parses `KEY=value` lines. */
export function parseEnvLines(text: string): { ok: true; value: Record<string, string> } | { ok: false; message: string } {
  return parsePairs(text, "=", "KEY=value");
}

/** One argument per line, so arguments with spaces need no quoting; blank lines are skipped. */
export function parseArgLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** A command line split into the command and its arguments. */
export type CommandLine = { ok: true; command: string; args: string[] } | { ok: false; message: string };

/**
 * Splits a pasted command line (`npx -y @modelcontextprotocol/server-memory`) as a POSIX shell
 * splits words: single and double quotes, `\ ` for a space. Nothing is expanded or run:
 * `$HOME` and `*.py` stay as written (the command runs without a shell), a backslash before
 * anything but a space, a quote or a backslash stays (Windows paths), and a shell operator
 * (`|`, `&&`, `;`, `>`…) is refused, since a server is one command. `shell-quote` does the split.
 */
export function parseCommandLine(text: string): CommandLine {
  if (text.trim() === "") return { ok: false, message: "A local (stdio) server needs a command to run" };
  const words: string[] = [];
  for (const token of parseShellWords(text.replace(/\\(?![ "'\\])/g, "\\\\"), (name) => `$${name}`)) {
    if (typeof token === "string") words.push(token);
    else if ("comment" in token) break;
    else if (token.op === "glob") words.push(token.pattern);
    else return { ok: false, message: `"${token.op}" is shell syntax; a server is one command with its arguments, run without a shell` };
  }
  const [command, ...args] = words;
  if (command === undefined || command === "") return { ok: false, message: "A local (stdio) server needs a command to run" };
  return { ok: true, command, args };
}

/** The inverse of parseHeaderLines / parseEnvLines. */
export function formatPairs(pairs: Record<string, string> | undefined, separator: ": " | "="): string {
  return Object.entries(pairs ?? {})
    .map(([key, value]) => `${key}${separator}${value}`)
    .join("\n");
}

function parsePairs(text: string, separator: string, shape: string): { ok: true; value: Record<string, string> } | { ok: false; message: string } {
  const value: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (!line) continue;
    const at = line.indexOf(separator);
    if (at <= 0) return { ok: false, message: `Line ${i + 1} is not "${shape}".` };
    const key = line.slice(0, at).trim();
    // defineProperty: a key such as __proto__ must stay a plain entry.
    Object.defineProperty(value, key, { value: line.slice(at + 1).trim(), enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value };
}
