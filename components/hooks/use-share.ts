"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { createShareClient } from "@/lib/share/browser/api-client";
import type { ShareClient } from "@/lib/share/browser/api-client";
import type { ShareInputs } from "@/lib/share/build";
import { shareLinkUrl, shortLinkUrl } from "@/lib/share/browser/location";
import { prepareShare } from "@/lib/share/prepare";
import { useCopy } from "./use-copy";
import type { PreparedShare } from "@/lib/share/prepare";
import { messageOf } from "@/lib/text/error-message";

/** Preparing the share for the dialog. */
export type SharePrepState = { status: "preparing" } | { status: "ready"; share: PreparedShare; link?: string } | { status: "error"; message: string };

/** The short link, once asked for. */
export type ShortLinkState = { status: "idle" } | { status: "saving" } | { status: "saved"; url: string } | { status: "error"; message: string };

/** Which text can be copied from the dialog. */
export type ShareCopyKind = "link" | "short-link" | "code" | "mcp-json";

export interface UseShareResult {
  prep: SharePrepState;
  shortLink: ShortLinkState;
  /** Stores the share on the server and gives back `/s/<id>`. */
  createShortLink: () => void;
  copied: ShareCopyKind | undefined;
  copy: (what: ShareCopyKind, text: string) => void;
}

/**
 * Makes a share of the playground as it is when the dialog opens: the inputs are read once,
 * so typing while the dialog is open does not change a link someone may already have copied.
 */
export function useShare(inputs: ShareInputs, options: { client?: ShareClient } = {}): UseShareResult {
  const [snapshot] = useState(inputs);
  const [prep, setPrep] = useState<SharePrepState>({ status: "preparing" });
  const [shortLink, setShortLink] = useState<ShortLinkState>({ status: "idle" });
  const { copied, copy } = useCopy<ShareCopyKind>();
  const clientRef = useRef(options.client);

  useEffect(() => {
    let live = true;
    const origin = window.location.origin;
    prepareShare(snapshot, { baseUrl: origin })
      .then((share) => {
        if (live) setPrep({ status: "ready", share, ...(share.transport === "link" ? { link: shareLinkUrl(origin, share.encoded) } : {}) });
      })
      .catch((error: unknown) => {
        if (live) setPrep({ status: "error", message: messageOf(error) });
      });
    return () => {
      live = false;
    };
  }, [snapshot]);

  const createShortLink = useCallback(() => {
    if (prep.status !== "ready" || prep.share.transport === "too-large") return;
    const client = clientRef.current ?? createShareClient((input, init) => fetch(input, init));
    setShortLink({ status: "saving" });
    void client
      .save(prep.share.encoded)
      .then((result) =>
        setShortLink(
          result.ok ? { status: "saved", url: shortLinkUrl(window.location.origin, result.value.id) } : { status: "error", message: result.message },
        ),
      );
  }, [prep]);

  return { prep, shortLink, createShortLink, copied, copy };
}
