/**
 * Turns whatever a provider call threw into a message for a person, with a stable code.
 * The text goes into the chat stream, so it must never contain a key: every secret the
 * request used is redacted, and so is anything that looks like one.
 */
import { removeSecrets } from "../secrets/patterns";
import { APICallError, LoadAPIKeyError, RetryError } from "ai";
import { messageOf } from "../text/error-message";
import { clip } from "../text/display";

/** Stable codes for model failures. */
export type ModelErrorCode = "auth" | "rate_limit" | "provider" | "bad_request" | "unreachable" | "missing_key" | "cancelled" | "unknown";

/** A failure described for a person. */
export interface ModelErrorInfo {
  code: ModelErrorCode;
  message: string;
  status?: number;
}

/** What the describer knows about the call. */
export interface ModelErrorContext {
  /** "OpenAI", "the OpenAI-compatible server at http://…" (capitalised where a sentence starts). */
  providerLabel: string;
  /** Values to remove from any text (keys used by this request). */
  secrets?: readonly string[];
  /** Where the person can fix the key. */
  keyHint?: string;
}

/** The longest detail of a provider's answer a message quotes, its cut mark included. */
const MAX_DETAIL = 300;
/** Removes the given secrets and key-shaped strings from a text (lib/secrets/patterns.ts). */
export const redact = (text: string, secrets: readonly string[] = []): string => removeSecrets(text, secrets);

/** The provider's own error message from a JSON error body (`{error:{message}}`, `{message}`), if any. */
function detailOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate.trim();
  } catch {
    // Not JSON: use the text itself.
  }
  const text = body.trim();
  return text === "" ? undefined : text;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function byStatus(status: number, ctx: ModelErrorContext, detail: string): ModelErrorInfo {
  const who = capitalise(ctx.providerLabel);
  if (status === 401 || status === 403) {
    const hint = ctx.keyHint ? ` ${ctx.keyHint}` : "";
    return { code: "auth", status, message: `${who} rejected the API key (HTTP ${status}).${hint}${detail}` };
  }
  if (status === 429) return { code: "rate_limit", status, message: `${who} is rate-limiting requests (HTTP 429). Wait a moment, then press Retry.${detail}` };
  if (status >= 500)
    return { code: "provider", status, message: `${who} had a server error (HTTP ${status}). Press Retry; if it keeps failing, try another model.${detail}` };
  return { code: "bad_request", status, message: `${who} refused the request (HTTP ${status}). Check the model id and settings.${detail}` };
}

/** Describes a provider failure for a person; never includes a secret. */
export function describeModelError(error: unknown, ctx: ModelErrorContext): ModelErrorInfo {
  const secrets = ctx.secrets ?? [];
  const clean = (text: string) => clip(redact(text, secrets), MAX_DETAIL);
  // With retries, the SDK wraps the last failure; describe that one.
  const inner = RetryError.isInstance(error) ? error.lastError : error;
  if (inner instanceof Error && inner.name === "AbortError") return { code: "cancelled", message: "The request was cancelled." };
  if (LoadAPIKeyError.isInstance(inner)) return { code: "missing_key", message: `No API key for ${ctx.providerLabel}. ${ctx.keyHint ?? ""}`.trim() };
  if (APICallError.isInstance(inner)) {
    if (inner.statusCode === undefined) {
      const cause = inner.cause instanceof Error ? inner.cause.message : inner.message;
      return { code: "unreachable", message: `Could not reach ${ctx.providerLabel}: ${clean(cause)}. Is it running, and is the base URL right?` };
    }
    const detail = detailOf(inner.responseBody);
    return byStatus(inner.statusCode, ctx, detail ? ` The provider said: ${clean(detail)}` : "");
  }
  const status = (inner as { statusCode?: unknown } | null)?.statusCode;
  const message = messageOf(inner);
  // Gateway errors carry a status but are not APICallErrors.
  if (typeof status === "number" && status >= 400) return byStatus(status, ctx, ` The provider said: ${clean(message)}`);
  return { code: "unknown", message: `The model call failed: ${clean(message)}` };
}
