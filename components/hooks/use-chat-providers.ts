"use client";

import { useEffect, useState } from "react";
import type { ServerKeyStatus } from "@/lib/model/providers";

export interface UseChatProvidersResult {
  /** Which providers have a key on the server; undefined until known (or when the server could not say). */
  serverKeys: ServerKeyStatus | undefined;
}

/** Asks this app's server which model providers it holds keys for (booleans only). */
export function useChatProviders(): UseChatProvidersResult {
  const [serverKeys, setServerKeys] = useState<ServerKeyStatus | undefined>(undefined);
  useEffect(() => {
    const aborter = new AbortController();
    fetch("/api/chat/providers", { signal: aborter.signal, cache: "no-store" })
      .then((response) => (response.ok ? (response.json() as Promise<{ serverKeys?: ServerKeyStatus }>) : undefined))
      .then((body) => {
        if (body?.serverKeys) setServerKeys(body.serverKeys);
      })
      // Unknown is a fine answer: the settings then just do not mark server keys.
      .catch(() => undefined);
    return () => aborter.abort();
  }, []);
  return { serverKeys };
}
