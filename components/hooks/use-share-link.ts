"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { createShareClient } from "@/lib/share/browser/api-client";
import type { ShareClient } from "@/lib/share/browser/api-client";
import { hashWithoutShare, readShareFromLocation } from "@/lib/share/browser/location";
import { openShareFile, openShareLocation } from "@/lib/share/browser/open";
import type { OpenShareResult, ShareSource } from "@/lib/share/browser/open";

/** An opened share: what the banner shows and what `onOpen` receives. */
export type OpenedShare = Extract<OpenShareResult, { ok: true }>;

/** Where opening a share stands. */
export type ShareLinkState =
  | { status: "none" }
  | { status: "loading"; source: ShareSource }
  | { status: "open"; opened: OpenedShare }
  | { status: "error"; source: ShareSource; message: string };

export interface UseShareLinkOptions {
  /**
   * Called once per share that opens, to put its parts where they belong (the code into the
   * editor, the messages into the chat). It must never start a run: a link runs nothing by itself.
   */
  onOpen?: (opened: OpenedShare) => void;
  client?: ShareClient;
}

export interface UseShareLinkResult {
  state: ShareLinkState;
  /** Opens an exported share file (from a file input). */
  openFile: (file: Blob) => void;
  /** Hides the banner and drops the share from the address bar. */
  dismiss: () => void;
}

/**
 * Opens the share the page was loaded with (`#share=…` or `#share-id=…`), again whenever the
 * fragment changes (a link pasted into the address bar of an open tab), or from a file.
 */
export function useShareLink(options: UseShareLinkOptions = {}): UseShareLinkResult {
  const [state, setState] = useState<ShareLinkState>({ status: "none" });
  const onOpenRef = useRef(options.onOpen);
  const clientRef = useRef(options.client);
  // Only the latest request may set state: a slow short link must not replace a newer file.
  const sequence = useRef(0);

  useEffect(() => {
    onOpenRef.current = options.onOpen;
  });

  const settle = useCallback((ticket: number, result: OpenShareResult) => {
    if (ticket !== sequence.current) return;
    if (!result.ok) return setState({ status: "error", source: result.source, message: result.message });
    setState({ status: "open", opened: result });
    onOpenRef.current?.(result);
  }, []);

  useEffect(() => {
    const client = clientRef.current ?? createShareClient((input, init) => fetch(input, init));
    const load = () => {
      const found = readShareFromLocation(window.location);
      if (found.kind === "none") return;
      const ticket = ++sequence.current;
      setState({ status: "loading", source: found.kind === "link" ? "link" : "short-link" });
      void openShareLocation(found, client).then((result) => settle(ticket, result));
    };
    load();
    window.addEventListener("hashchange", load);
    return () => window.removeEventListener("hashchange", load);
  }, [settle]);

  const openFile = useCallback(
    (file: Blob) => {
      const ticket = ++sequence.current;
      setState({ status: "loading", source: "file" });
      file.text().then(
        (text) => settle(ticket, openShareFile(text)),
        () => settle(ticket, { ok: false, source: "file", message: "The file could not be read." }),
      );
    },
    [settle],
  );

  const dismiss = useCallback(() => {
    sequence.current++;
    setState({ status: "none" });
    const { pathname, search, hash } = window.location;
    const rest = hashWithoutShare(hash);
    if (rest !== hash) window.history.replaceState(window.history.state, "", `${pathname}${search}${rest}`);
  }, []);

  return { state, openFile, dismiss };
}
