/**
 * The error family of the chat route, for failures before any model is called (bad body,
 * missing key, refused base URL). Codes are stable `type:chat` strings; the JSON body is
 * `{ error: { code, message } }`. Failures during a model call travel inside the stream
 * instead (see model-errors.ts). `chatErrorText` is the browser's side: it turns what
 * useChat reports (the response text, or a stream error) back into a sentence.
 */

const STATUS = {
  bad_request: 400,
  missing_key: 400,
  refused: 403,
  too_large: 413,
} as const;

/** Stable error codes. */
export type ChatRouteErrorCode = `${keyof typeof STATUS}:chat`;

/** A chat route failure with a stable code and a message for a person. */
export class ChatRouteError extends Error {
  override readonly name = "ChatRouteError";

  constructor(
    readonly code: ChatRouteErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** HTTP status derived from the code's type. */
  get status(): number {
    return STATUS[this.code.split(":")[0] as keyof typeof STATUS];
  }

  /** The JSON error response. */
  toResponse(): Response {
    return Response.json({ error: { code: this.code, message: this.message } }, { status: this.status });
  }
}

/** The sentence to show for an error useChat reported: a route JSON body, a stream error text, or a network failure. */
export function chatErrorText(error: Error): string {
  const text = error.message.trim();
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") return parsed.error.message;
  } catch {
    // Not a JSON body: a stream error text or a fetch failure.
  }
  if (error instanceof TypeError || /failed to fetch|networkerror|load failed/i.test(text)) {
    return "Could not reach this app's server (network error). Check the connection, then press Retry.";
  }
  return text === "" ? "The chat request failed." : text;
}
