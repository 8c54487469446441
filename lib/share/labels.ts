/**
 * Short labels in a share (server, tool and model names, secret slot names): what they may
 * contain, and how the builder cleans what a server sent so a state it builds always validates.
 * Pure.
 */
import { SHARE_CAPS } from "./caps";

/**
 * Control characters and bidirectional overrides: harmless to React (it renders text) but they
 * let a name hide or reorder what a person reads ("Trojan Source"), so labels never carry them.
 */
const UNSAFE_LABEL_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Header, environment variable, query parameter or flag name: an RFC 9110 token, short. */
export const SLOT_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;

/** True when a label holds no control or bidi-override characters. */
export function isSafeLabel(text: string): boolean {
  return !new RegExp(UNSAFE_LABEL_CHARS.source).test(text);
}

/** A label with unsafe characters removed, trimmed and cut to the cap; `fallback` when empty. */
export function cleanLabel(text: unknown, fallback: string): string {
  if (typeof text !== "string") return fallback;
  const cleaned = text.replace(UNSAFE_LABEL_CHARS, "").trim().slice(0, SHARE_CAPS.nameChars).trim();
  return cleaned === "" ? fallback : cleaned;
}

/** Optional free text (titles, descriptions) cut to a cap; undefined when not a string. */
export function cleanText(text: unknown, cap: number): string | undefined {
  return typeof text === "string" ? text.slice(0, cap) : undefined;
}
