/**
 * Characters that make text display differently from what it is: bidirectional overrides
 * and isolates (the "Trojan Source" trick, CVE-2021-42574), zero-width characters, and control
 * characters. In a command a person is asked to approve, any of them can hide what runs, so
 * shared links and imported configs refuse them, and the page shows every command escaped.
 * Pure.
 */
import type * as z from "zod";

// Bidi controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI), zero-width and invisible formatting
// characters, the BOM, and C0/C1 controls other than tab, line feed and carriage return.
const HIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2069\u3164\uFEFF\uFFA0]/u;
// What the display escape also spells out: the hidden characters plus tab and line breaks.
const ESCAPED_ALL = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\u3164\uFEFF\uFFA0]/gu;

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The first hidden character in `text` (as "U+202E") and where it is, or undefined. */
export function findHiddenCharacter(text: string): { codePoint: string; index: number } | undefined {
  const match = HIDDEN.exec(text);
  return match ? { codePoint: codePoint(match[0]), index: match.index } : undefined;
}

/** True when `text` holds no hidden character. */
export function isVisibleText(text: string): boolean {
  return !HIDDEN.test(text);
}

/** The message for a refused value, naming the character. */
export function hiddenCharacterMessage(text: string): string | undefined {
  const found = findHiddenCharacter(text);
  return found
    ? `contains a hidden or direction-changing character (${found.codePoint} at position ${found.index}), which could make the command look different from what runs`
    : undefined;
}

/** `text` with every hidden or line-breaking character spelled out (`\n`, `\t`, `\u{202E}`), for display. */
export function escapeHidden(text: string): string {
  return text.replace(ESCAPED_ALL, (char) => {
    if (char === "\n") return "\\n";
    if (char === "\t") return "\\t";
    if (char === "\r") return "\\r";
    return `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
  });
}

/** A zod string for a command or argument a person will be asked to run: refuses hidden characters, naming them. */
export function visibleText(schema: z.ZodString) {
  return schema.refine(isVisibleText, { error: (issue) => hiddenCharacterMessage(String(issue.input)) ?? "contains a hidden character" });
}
