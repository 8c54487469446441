"use client";

import { useEffect, useMemo, useState } from "react";
import {
  buildSystemPrompt,
  createToolSearch,
  generateDeclarations,
  lintTools,
  type Declarations,
  type LintFinding,
  type ServerTools,
  type ToolSearch,
} from "@/lib/codemode";
import type { TokenReport } from "@/lib/codemode/tokens";

export interface UseToolCatalogResult {
  declarations: Declarations;
  systemPrompt: string;
  /** The prompt for search mode: the server list and the search_tools tool instead of every declaration. */
  searchPrompt: string;
  lint: LintFinding[];
  search: ToolSearch;
}

/** The typed API for the connected servers: declarations, prompt, lint and search (token estimates: useTokenReport). */
export function useToolCatalog(servers: readonly ServerTools[]): UseToolCatalogResult {
  const declarations = useMemo(() => generateDeclarations(servers), [servers]);
  const systemPrompt = useMemo(() => buildSystemPrompt(declarations), [declarations]);
  const searchPrompt = useMemo(() => buildSystemPrompt(declarations, "search"), [declarations]);
  const lint = useMemo(() => lintTools(servers), [servers]);
  const search = useMemo(() => createToolSearch(servers, declarations), [servers, declarations]);
  return { declarations, systemPrompt, searchPrompt, lint, search };
}

/**
 * Token estimates of the catalog, for the views that show them. The tokenizer's tables are about
 * 2 MB of JavaScript: they load when such a view first shows, never while the page starts.
 */
export function useTokenReport(catalog: Pick<UseToolCatalogResult, "declarations" | "systemPrompt">): TokenReport | undefined {
  const { declarations, systemPrompt } = catalog;
  const [tokens, setTokens] = useState<{ for: Declarations; report: TokenReport } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    import("@/lib/codemode/tokens")
      .then(({ tokenReport }) => {
        if (live) setTokens({ for: declarations, report: tokenReport(declarations, systemPrompt) });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [declarations, systemPrompt]);
  return tokens?.for === declarations ? tokens.report : undefined;
}
