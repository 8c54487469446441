"use client";

import { useEffect, useState } from "react";
import { createShareClient } from "@/lib/share/browser/api-client";
import type { ShareClient } from "@/lib/share/browser/api-client";
import type { ShareInputs } from "@/lib/share/build";
import { ShareDraft, type ShareDraftState } from "@/lib/share/browser/share-draft";
import { useCopy } from "./use-copy";
import { useStore } from "./use-store";

export type { SharePrepState, ShortLinkState } from "@/lib/share/browser/share-draft";

/** Which text can be copied from the dialog. */
export type ShareCopyKind = "link" | "short-link" | "code" | "mcp-json";

export interface UseShareResult extends ShareDraftState {
  /** Stores the share on the server and gives back `/s/<id>`. */
  createShortLink: () => void;
  copied: ShareCopyKind | undefined;
  copy: (what: ShareCopyKind, text: string) => void;
}

const PREPARING: ShareDraftState = { prep: { status: "preparing" }, shortLink: { status: "idle" } };

/**
 * A share of the playground as it is when the view mounts (`ShareDraft`,
 * lib/share/browser/share-draft.ts): the inputs are read once, so typing while the dialog is
 * open does not change a link someone may already have copied.
 */
export function useShare(inputs: ShareInputs, options: { client?: ShareClient } = {}): UseShareResult {
  const [draft] = useState(
    () =>
      new ShareDraft(inputs, {
        origin: typeof window === "undefined" ? "" : window.location.origin,
        client: options.client ?? createShareClient((input, init) => fetch(input, init)),
      }),
  );
  const state = useStore(draft, undefined, { fallback: PREPARING });
  const { copied, copy } = useCopy<ShareCopyKind>();
  useEffect(() => {
    void draft.prepare();
    return () => draft.dispose();
  }, [draft]);
  return { ...state, createShortLink: () => void draft.createShortLink(), copied, copy };
}
