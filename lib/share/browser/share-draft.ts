/**
 * A share being made (docs/page-state.md, "Page state"): the Share dialog's store for one
 * choice of runs and skills. The inputs are read once, when it is made, so typing while the
 * dialog is open does not change a link someone may already have copied; it prepares the share
 * (encoded, sized, link or file) once, and stores a short link when asked, one at a time. After
 * `dispose` (the dialog closed, or the choice changed) nothing settles it. The page's origin and
 * the short-link client are injected, so Node tests drive it against the real routes.
 */
import { Store } from "../../state/store";
import { messageOf } from "../../text/error-message";
import type { ShareInputs } from "../build";
import { prepareShare, type PreparedShare } from "../prepare";
import type { ShareClient } from "./api-client";
import { shareLinkUrl, shortLinkUrl } from "./location";

/** Preparing the share. `link` is the whole share in the address (`#share=…`) when it fits in one. */
export type SharePrepState = { status: "preparing" } | { status: "ready"; share: PreparedShare; link?: string } | { status: "error"; message: string };

/** The short link, once asked for. */
export type ShortLinkState = { status: "idle" } | { status: "saving" } | { status: "saved"; url: string } | { status: "error"; message: string };

export interface ShareDraftState {
  prep: SharePrepState;
  shortLink: ShortLinkState;
}

export interface ShareDraftOptions {
  /** The page's origin: links start with it. */
  origin: string;
  /** Stores short links (the browser's client over /api/share). */
  client: ShareClient;
}

export class ShareDraft extends Store<ShareDraftState> {
  readonly #inputs: ShareInputs;
  readonly #options: ShareDraftOptions;
  #started = false;
  #disposed = false;

  constructor(inputs: ShareInputs, options: ShareDraftOptions) {
    super({ prep: { status: "preparing" }, shortLink: { status: "idle" } });
    this.#inputs = { ...inputs };
    this.#options = options;
  }

  /**
   * Prepares the share, once however often it is called. A call after `dispose` takes the draft
   * back (React's strict mode mounts a view, cleans it up and mounts it again).
   */
  prepare(): Promise<void> {
    this.#disposed = false;
    if (this.#started) return Promise.resolve();
    this.#started = true;
    const { origin } = this.#options;
    return prepareShare(this.#inputs, { baseUrl: origin }).then(
      (share) => this.#settle({ prep: { status: "ready", share, ...(share.transport === "link" ? { link: shareLinkUrl(origin, share.encoded) } : {}) } }),
      (error: unknown) => this.#settle({ prep: { status: "error", message: messageOf(error) } }),
    );
  }

  /** Stores the prepared share on the server for `/s/<id>`; nothing while one is being saved or before it is prepared. */
  async createShortLink(): Promise<void> {
    const { prep, shortLink } = this.snapshot();
    if (prep.status !== "ready" || prep.share.transport === "too-large" || shortLink.status === "saving") return;
    this.#settle({ shortLink: { status: "saving" } });
    const result = await this.#options.client.save(prep.share.encoded);
    this.#settle({
      shortLink: result.ok ? { status: "saved", url: shortLinkUrl(this.#options.origin, result.value.id) } : { status: "error", message: result.message },
    });
  }

  /** Nothing settles it any more. */
  dispose(): void {
    this.#disposed = true;
  }

  #settle(change: Partial<ShareDraftState>): void {
    if (!this.#disposed) this.set({ ...this.snapshot(), ...change });
  }
}
