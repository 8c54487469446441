"use client";

import { useEffect, useState } from "react";
import type { Declarations, ToolCatalog } from "@/lib/codemode";
import type { TokenReport } from "@/lib/codemode/tokens";

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
