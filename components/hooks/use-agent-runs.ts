"use client";

import { useEffect, useState } from "react";
import { followRunFeed, type FeedStatus } from "@/lib/codemode-mcp/browser/run-feed-client";
import type { RunRecord } from "@/lib/timeline/run-record";

/**
 * Runs that agents make through this app's code-mode MCP endpoint, live: each update of a run's
 * record goes into the session's run history (replacing its previous copy), so it can be viewed
 * while it streams, opened in the editor, replayed and shared like any run. Local mode only (the
 * feed needs the terminal's token); `status` says whether the endpoint is configured.
 */
export function useAgentRuns(localToken: string | undefined, add: (record: RunRecord) => void): FeedStatus | undefined {
  const [status, setStatus] = useState<FeedStatus | undefined>(undefined);
  useEffect(() => {
    if (!localToken) return;
    const stop = new AbortController();
    void followRunFeed(localToken, { onUpdate: (update) => add(update.record), onStatus: setStatus }, stop.signal);
    return () => stop.abort();
  }, [localToken, add]);
  return status;
}
