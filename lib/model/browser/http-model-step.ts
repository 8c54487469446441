/**
 * The page's model step: POST /api/chat (this app's own origin, so a browser-typed key goes
 * nowhere else; through the page's channel) through the AI SDK's chat transport, which returns the route's UI message
 * stream and throws the route's JSON error body on a refused request.
 */
import { generateId } from "../ui-parts";
import { appFetch } from "../../channel/browser/app-channel";
import { loadUiStream } from "../ui-stream-loader";
import type { ModelStep } from "../agent-loop";
import type { ChatRequestExtras } from "../request-schema";
import type { CodeModeUIMessage } from "../types";

/** Where the step goes and what it sends besides the messages. */
export interface HttpModelStepOptions {
  /** Body fields of the next request (model, key, system prompt, mode, settings), read per request. */
  body: () => ChatRequestExtras;
  api?: string;
  /** The page's channel by default; tests hand the request to the route handler in-process. */
  fetch?: typeof fetch;
}

/** A model step over HTTP; one chat id per step function (the route does not keep state by it). */
export function httpModelStep({ body, api = "/api/chat", fetch }: HttpModelStepOptions): ModelStep {
  const chatId = generateId();
  return async ({ messages, abortSignal }) => {
    // The transport comes with the AI SDK's stream module, loaded with the first step; it keeps no state between steps.
    const { DefaultChatTransport } = await loadUiStream();
    const transport = new DefaultChatTransport<CodeModeUIMessage>({ api, body, fetch: fetch ?? appFetch });
    return transport.sendMessages({ chatId, messages, abortSignal, trigger: "submit-message", messageId: undefined });
  };
}
