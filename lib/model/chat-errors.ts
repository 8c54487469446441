/**
 * The browser's side of chat route errors. The route fails before any model is called (bad
 * body, missing key, refused base URL) with the one RouteError (lib/http/route-error.ts),
 * codes `kind:chat`; failures during a model call travel inside the stream instead (see
 * model-errors.ts). `chatErrorText` turns what useChat reports back into a sentence.
 */
import { parseRouteErrorBody } from "../http/route-error";

/** The sentence to show for an error useChat reported: a route JSON body, a stream error text, or a network failure. */
export function chatErrorText(error: Error): string {
  const text = error.message.trim();
  // A route's JSON body; otherwise a stream error text or a fetch failure.
  const routeError = parseRouteErrorBody(text);
  if (routeError) return routeError.message;
  if (error instanceof TypeError || /failed to fetch|networkerror|load failed/i.test(text)) {
    return "Could not reach this app's server (network error). Check the connection, then press Retry.";
  }
  return text === "" ? "The chat request failed." : text;
}
