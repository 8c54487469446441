"use client";

import { useEffect, useState } from "react";
import { appFetch } from "@/lib/http/browser/app-channel";
import type { ServerKeyAccess } from "@/lib/model/chat-settings";
import type { ServerKeyStatus } from "@/lib/model/providers";

export interface UseChatProvidersResult {
  /** Which providers have a key on the server; undefined until known (or when the server could not say). */
  serverKeys: ServerKeyStatus | undefined;
  /** How the server's keys are reached: open (local), behind the operator's access secret, or off. */
  access: ServerKeyAccess | undefined;
}

/** Asks this app's server which model providers it holds keys for (booleans only). */
export function useChatProviders(): UseChatProvidersResult {
  const [state, setState] = useState<UseChatProvidersResult>({ serverKeys: undefined, access: undefined });
  useEffect(() => {
    const aborter = new AbortController();
    appFetch("/api/chat/providers", { signal: aborter.signal, cache: "no-store" })
      .then((response) => (response.ok ? (response.json() as Promise<Partial<UseChatProvidersResult>>) : undefined))
      .then((body) => {
        if (body?.serverKeys) setState({ serverKeys: body.serverKeys, access: body.access });
      })
      // Unknown is a fine answer: the settings then just do not mark server keys.
      .catch(() => undefined);
    return () => aborter.abort();
  }, []);
  return state;
}
