"use client";

import { useChat } from "@ai-sdk/react";
import type { ChatStatus } from "ai";
import { useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import {
  CodeModeChatController,
  type ChatControllerOptions,
  type ChatControllerState,
  type CodeModeChatHost,
  type ToolActivity,
} from "@/components/chat/chat-controller";
import { chatErrorText } from "@/lib/model/chat-errors";
import type { LoopDecision } from "@/lib/model/loop-policy";
import type { CodeModeUIMessage, InspectorStep } from "@/lib/model/types";

export type { CodeModeChatHost, ToolActivity };

/** Options: the host functions, the next request's body fields, the loop policy and step mode. */
export type UseCodeModeChatOptions = ChatControllerOptions;

export interface UseCodeModeChatResult {
  messages: CodeModeUIMessage[];
  status: ChatStatus;
  /** A request is in flight or a tool call is still being answered. */
  busy: boolean;
  /** The last failure, as a sentence for a person. */
  error: string | undefined;
  /** Tool calls in progress, by toolCallId. */
  activity: Readonly<Record<string, ToolActivity>>;
  /** Model calls per assistant message, for the request inspector. */
  inspector: Readonly<Record<string, readonly InspectorStep[]>>;
  /** Why the loop stopped by itself (max steps, returned directly), by assistant message id. */
  stops: Readonly<Record<string, LoopDecision>>;
  send: (text: string) => void;
  stop: () => void;
  /** Resends after an error, keeping every step that completed. */
  retry: () => void;
  /** Replaces the last user message and asks again. */
  editLast: (text: string) => void;
  clear: () => void;
  /** Replaces the conversation (a shared link's messages); nothing is sent or run. */
  restore: (messages: CodeModeUIMessage[]) => void;
}

const NO_STATE: ChatControllerState = { activity: {}, inspector: {}, stops: {} };

/**
 * The code-mode chat: useChat over /api/chat, the model's tool calls answered in the browser
 * (the sandbox runs the code), the loop policy (max steps, return directly) and the inspector
 * records the route streams alongside. The logic lives in CodeModeChatController.
 */
export function useCodeModeChat(options: UseCodeModeChatOptions): UseCodeModeChatResult {
  // The Chat outlives renders; its callbacks read the latest options through this ref.
  const optionsRef = useRef(options);
  useLayoutEffect(() => {
    optionsRef.current = options;
  });
  const [controller] = useState(() => new CodeModeChatController(optionsRef));
  const state = useSyncExternalStore(controller.subscribe, controller.getSnapshot, () => NO_STATE);
  const { messages, status, error } = useChat<CodeModeUIMessage>({ chat: controller.chat });

  const actions = useMemo(
    () => ({
      send: (text: string) => void controller.send(text),
      stop: () => void controller.stop(),
      retry: () => void controller.retry(),
      editLast: (text: string) => void controller.editLast(text),
      clear: () => void controller.clear(),
      restore: (messages: CodeModeUIMessage[]) => void controller.restore(messages),
    }),
    [controller],
  );

  const busy = status === "submitted" || status === "streaming" || Object.keys(state.activity).length > 0;
  const errorText = useMemo(() => (error ? chatErrorText(error) : undefined), [error]);
  return { messages, status, busy, error: errorText, ...state, ...actions };
}
