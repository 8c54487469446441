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
  /** Undefined until the tokenizer (about 2 MB) has loaded. */
  tokens: TokenReport | undefined;
}

/** The typed API for the connected servers: declarations, prompt, lint, search and token estimates. */
export function useToolCatalog(servers: readonly ServerTools[]): UseToolCatalogResult {
  const declarations = useMemo(() => generateDeclarations(servers), [servers]);
  const systemPrompt = useMemo(() => buildSystemPrompt(declarations), [declarations]);
  const searchPrompt = useMemo(() => buildSystemPrompt(declarations, "search"), [declarations]);
  const lint = useMemo(() => lintTools(servers), [servers]);
  const search = useMemo(() => createToolSearch(servers, declarations), [servers, declarations]);
  const [tokens, setTokens] = useState<{ for: Declarations; report: TokenReport } | undefined>(undefined);

  useEffect(() => {
    let live = true;
    // The tokenizer's tables are large: load them only once there is something to count.
    import("@/lib/codemode/tokens")
      .then(({ tokenReport }) => {
        if (live) setTokens({ for: declarations, report: tokenReport(declarations, systemPrompt) });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [declarations, systemPrompt]);

  return { declarations, systemPrompt, searchPrompt, lint, search, tokens: tokens?.for === declarations ? tokens.report : undefined };
}
