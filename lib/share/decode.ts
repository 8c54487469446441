/**
 * Opens a share: link text (`v<N>.<base64url deflate-raw JSON>`) or a JSON value from a file →
 * a validated ShareState, or a ShareDecodeError. Every step is capped before the next runs:
 * text length, base64url, decompressed size (zip bombs), UTF-8, nesting depth (before
 * JSON.parse or zod recurse), then migrations to the current version and the zod allow-list,
 * which drops unknown keys (`__proto__` included). Never throws. Pure apart from the platform's
 * DecompressionStream.
 */
import { base64UrlToBytes } from "./base64url";
import { SHARE_CAPS } from "./caps";
import { clampSharedLimits } from "./clamp-limits";
import { inflateRaw } from "./compress";
import type { ShareDecodeError } from "./errors";
import { jsonNestingDepth } from "./json-value";
import { migrateShare } from "./migrate";
import type { MigrateOptions } from "./migrate";
import { SHARE_VERSION, shareStateSchema } from "./schema";
import type { ShareState } from "./schema";
import { isRecord } from "../text/json-value";
import { formatPath } from "../text/json-path";

/** An opened share and notes for the person (upgrades, lowered limits), or why it failed. */
export type ShareDecodeResult = { ok: true; state: ShareState; warnings: string[] } | { ok: false; error: ShareDecodeError };

/** Caps and migrations, injectable for tests. */
export interface DecodeOptions extends MigrateOptions {
  /** Longest encoded text accepted. Default SHARE_CAPS.snapshotChars. */
  maxChars?: number;
  /** Largest decompressed JSON accepted, in bytes. Default SHARE_CAPS.jsonBytes. */
  maxJsonBytes?: number;
}

const PREFIX = /^v(\d{1,6})\.(.*)$/s;
const MAX_ISSUES = 5;

function fail(code: ShareDecodeError["code"], message: string): ShareDecodeResult {
  return { ok: false, error: { code, message } };
}

/**
 * Validates an already parsed share payload (a link's JSON or an exported file). `version`
 * in the payload wins; `versionHint` (a link's prefix) is used when the payload has none.
 */
export function parseShareValue(value: unknown, versionHint?: number, options: DecodeOptions = {}): ShareDecodeResult {
  if (!isRecord(value)) return fail("format", "This is not a Code Mode Playground share: expected a JSON object.");
  const declared = value.version;
  const version = typeof declared === "number" && Number.isInteger(declared) ? declared : versionHint;
  if (version === undefined) return fail("format", "This is not a Code Mode Playground share: it has no format version.");
  if (versionHint !== undefined && version !== versionHint) {
    return fail("corrupt", `This link is inconsistent: its prefix says format v${versionHint}, its content v${version}.`);
  }
  const migrated = migrateShare(value, version, options);
  if (!migrated.ok) return migrated;
  const parsed = shareStateSchema.safeParse(migrated.payload);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, MAX_ISSUES).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    const more = parsed.error.issues.length > MAX_ISSUES ? ` (and ${parsed.error.issues.length - MAX_ISSUES} more)` : "";
    return fail("invalid", `This share's content is not valid: ${issues.join("; ")}${more}.`);
  }
  const warnings = [...migrated.notes];
  const state = parsed.data;
  if (state.limits) {
    const clamped = clampSharedLimits(state.limits);
    state.limits = clamped.limits;
    warnings.push(...clamped.notes);
  }
  return { ok: true, state, warnings };
}

/** JSON.parse behind the nesting-depth check; `fromLink` picks the wording of the failure. */
export function parseJsonText(text: string, fromLink: boolean): { ok: true; value: unknown } | { ok: false; error: ShareDecodeError } {
  if (jsonNestingDepth(text) > SHARE_CAPS.jsonDepth) {
    return { ok: false, error: { code: "invalid", message: `This share's content is nested more than ${SHARE_CAPS.jsonDepth} levels deep.` } };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return fromLink
      ? { ok: false, error: { code: "corrupt", message: "This link is damaged: its content is not JSON." } }
      : { ok: false, error: { code: "format", message: "This is not a Code Mode Playground share: it is not JSON." } };
  }
}

/** Parses share JSON text (depth check first) and validates it. */
export function parseShareJson(text: string, versionHint?: number, options: DecodeOptions = {}): ShareDecodeResult {
  const parsed = parseJsonText(text, versionHint !== undefined);
  return parsed.ok ? parseShareValue(parsed.value, versionHint, options) : parsed;
}

/** Decodes link text (`v1.…`, surrounding whitespace ignored) into a validated state. */
export async function decodeShareState(text: string, options: DecodeOptions = {}): Promise<ShareDecodeResult> {
  const maxChars = options.maxChars ?? SHARE_CAPS.snapshotChars;
  if (typeof text !== "string") return fail("format", "This is not a Code Mode Playground share link.");
  if (text.length > maxChars + 64) return fail("too_large", `This link is longer than ${maxChars} characters, more than a share may hold.`);
  const match = PREFIX.exec(text.trim());
  if (!match) return fail("format", "This is not a Code Mode Playground share link (it should start with v1.).");
  const version = Number(match[1]);
  // A newer app may also encode differently: say "newer version", not "damaged".
  if (version > (options.target ?? SHARE_VERSION)) {
    const newer = migrateShare({}, version, options);
    if (!newer.ok) return newer;
  }
  const bytes = base64UrlToBytes(match[2] ?? "");
  if (!bytes || bytes.length === 0) return fail("corrupt", "This link is damaged: its data is not valid base64url. Copy the whole link again.");
  const maxJsonBytes = options.maxJsonBytes ?? SHARE_CAPS.jsonBytes;
  const inflated = await inflateRaw(bytes, maxJsonBytes);
  if (!inflated.ok) {
    return inflated.reason === "too_large"
      ? fail("too_large", `This link expands to more than ${maxJsonBytes} bytes, more than a share may hold.`)
      : fail("corrupt", "This link is damaged or cut short: it does not decompress. If it was copied by hand, copy the whole link again.");
  }
  let json: string;
  try {
    json = new TextDecoder("utf-8", { fatal: true }).decode(inflated.bytes);
  } catch {
    return fail("corrupt", "This link is damaged: its content is not UTF-8 text.");
  }
  return parseShareJson(json, version, options);
}
