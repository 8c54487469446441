"use client";

import { useEffect, useState } from "react";
import { usePage } from "@/components/playground/page-context";
import { AppHost, type AppHostOptions } from "@/lib/mcp-apps/app-host";

/**
 * One MCP App's host for a view's life (docs/mcp-apps.md, "MCP Apps"), over the page's side
 * (`Playground.appPage`): built once, its resource read on mount, disposed on unmount. The
 * options are fixed for the view's life: the tool, its input and where it shows.
 */
export function useAppHost(options: Omit<AppHostOptions, "page">): AppHost {
  const { playground } = usePage();
  const [host] = useState(() => new AppHost({ ...options, page: playground.appPage }));
  useEffect(() => {
    void host.load();
    return () => host.dispose();
  }, [host]);
  return host;
}
