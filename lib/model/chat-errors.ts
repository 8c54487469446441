/**
 * The browser's side of chat route errors. The route fails before any model is called (bad
 * body, missing key, refused base URL) with the one RouteError (lib/http/route-error.ts),
 * codes `kind:chat`; failures during a model call travel inside the stream instead (see
 * model-errors.ts). `chatErrorText` turns what useChat reports back into a sentence.
 */

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
