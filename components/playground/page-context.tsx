"use client";

import { createContext, use, useEffect, useState, type ReactNode } from "react";
import { pageState, AgentFeedStore, type PageState } from "@/lib/playground/browser/page-playground";
import { renderOnlyPlayground } from "@/lib/playground/playground";
import { SessionKeeper } from "@/lib/playground/session-keeper";
import { createShareClient } from "@/lib/share/browser/api-client";
import { ShareLinkStore } from "@/lib/share/browser/share-link-store";

const PageContext = createContext<PageState | null>(null);

/**
 * Gives the panels the page's stores (lib/playground), which never change identity: a panel
 * subscribes to its own slice with useStore, so a change re-renders the panels that read it and
 * nothing else. In the browser the stores were built before hydration; on the server, inert ones.
 */
export function PageProvider({ children }: { children: ReactNode }) {
  const [state] = useState<PageState>(() => pageState() ?? renderOnly());
  useEffect(() => state.hydrated(), [state]);
  return <PageContext value={state}>{children}</PageContext>;
}

function renderOnly(): PageState {
  const playground = renderOnlyPlayground();
  return {
    playground,
    serverActions: playground.servers.actions(),
    oauth: undefined,
    localToken: undefined,
    agentFeed: new AgentFeedStore(undefined),
    session: new SessionKeeper(playground, undefined),
    // The server render opens no share: the address bar is read once the page has hydrated.
    shareLink: new ShareLinkStore({ client: createShareClient(() => Promise.reject(new Error("no network in the server render"))), onOpen: () => undefined }),
    hydrated: () => undefined,
  };
}

/** The page's stores. */
export function usePage(): PageState {
  const state = use(PageContext);
  if (!state) throw new Error("usePage needs a PageProvider above it.");
  return state;
}

/** The page's stores, or null outside the playground (the /bench page's timeline). */
export function usePageIfAny(): PageState | null {
  return use(PageContext);
}
