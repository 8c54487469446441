"use client";

import { useEffect, useMemo, useState } from "react";
import { createToolCatalog, type Declarations, type ServerTools, type ToolCatalog } from "@/lib/codemode";
import type { TokenReport } from "@/lib/codemode/tokens";

/** The typed API for the connected servers (lib/codemode/tool-catalog.ts), built once per list of servers. */
export function useToolCatalog(servers: readonly ServerTools[]): ToolCatalog {
  return useMemo(() => createToolCatalog(servers), [servers]);
}

/**
 * Token estimates of the catalog, for the views that show them. The tokenizer's tables are about
 * 2 MB of JavaScript: they load when such a view first shows, never while the page starts.
 */
export function useTokenReport(catalog: ToolCatalog): TokenReport | undefined {
  const [tokens, setTokens] = useState<{ for: Declarations; report: TokenReport } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    import("@/lib/codemode/tokens")
      .then(({ tokenReport }) => {
        if (live) setTokens({ for: catalog.declarations, report: tokenReport(catalog.declarations, catalog.systemPrompt()) });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [catalog]);
  return tokens?.for === catalog.declarations ? tokens.report : undefined;
}
