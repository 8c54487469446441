/**
 * The share as a JSON file: the same state a link carries, pretty-printed, with a `format`
 * marker so a stray JSON file is recognised as "not a share" rather than as a broken one.
 * Import goes through the same migrations and allow-list as a link. Pure.
 */
import { SHARE_CAPS } from "./caps";
import { parseJsonText, parseShareValue } from "./decode";
import type { DecodeOptions, ShareDecodeResult } from "./decode";
import { shareStateSchema } from "./schema";
import type { ShareState } from "./schema";

/** The `format` marker of an exported share file. */
export const SHARE_FILE_FORMAT = "code-mode-playground/share";
/** The suggested download name. */
export const SHARE_FILE_NAME = "playground.share.json";

/** The state as file text; throws when the state breaks the schema. */
export function shareStateToFile(state: ShareState): string {
  // Parse again so only allow-listed fields are written, then put the marker first for people reading the file.
  return `${JSON.stringify({ format: SHARE_FILE_FORMAT, ...shareStateSchema.parse(state) }, null, 2)}\n`;
}

/** Reads an exported share file (or the bare state JSON) into a validated state. */
export function readShareFile(text: string, options: DecodeOptions = {}): ShareDecodeResult {
  if (text.length > SHARE_CAPS.jsonBytes) {
    return { ok: false, error: { code: "too_large", message: `This file is larger than ${SHARE_CAPS.jsonBytes} bytes, more than a share may hold.` } };
  }
  const parsed = parseJsonText(text, false);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  const format = typeof value === "object" && value !== null && "format" in value ? value.format : undefined;
  if (format !== undefined && format !== SHARE_FILE_FORMAT) {
    return { ok: false, error: { code: "format", message: "This JSON file is not a Code Mode Playground share (its format marker differs)." } };
  }
  return parseShareValue(value, undefined, options);
}
