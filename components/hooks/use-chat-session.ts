"use client";

import { useLayoutEffect, useRef, useState } from "react";
import { httpModelStep } from "@/lib/model/browser/http-model-step";
import { ChatSession, type ChatSessionConfig } from "@/lib/model/chat-session";
import type { ChatRequestExtras } from "@/lib/model/request-schema";

/** What the page gives the chat: the tool handlers, the next request's body, the loop policy and step mode. */
export type UseChatSessionOptions = Omit<ChatSessionConfig, "modelStep"> & {
  /** Body fields of the next POST /api/chat, read per request. */
  requestExtras: () => ChatRequestExtras;
};

/** A session whose model step is this app's POST /api/chat and whose other collaborators follow the page's latest options. */
class PageChatSession extends ChatSession {
  constructor(options: { readonly current: UseChatSessionOptions }) {
    const modelStep = httpModelStep({ body: () => options.current.requestExtras() });
    super(() => ({ ...options.current, modelStep }));
  }
}

/**
 * The page's one chat session (lib/model/chat-session.ts), created once at the page level so
 * the page and the chat panel share it. It is a store: the chat panel subscribes to all of it
 * (`useStore(session)`), the page only to the slices it needs (how many messages), so a
 * streaming answer re-renders the chat and nothing else. Its model step is POST /api/chat;
 * everything else is read from the latest options when a loop starts.
 */
export function useChatSession(options: UseChatSessionOptions): ChatSession {
  const optionsRef = useRef(options);
  useLayoutEffect(() => {
    optionsRef.current = options;
  });
  const [session] = useState(() => new PageChatSession(optionsRef));
  return session;
}
