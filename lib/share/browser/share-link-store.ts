/**
 * Opening a share on the page (docs/page-state.md, "Page state"): the link the page was loaded
 * with (`#share=…`, `#share-id=…`), a link pasted into the address bar of an open tab, or an
 * exported file. A store of where that stands and whether its banner shows; only the newest
 * request may settle it (a slow short link never replaces a file opened since). Each share
 * that opens goes once to `onOpen`, which puts its parts where they belong and must never start
 * a run: a link runs nothing by itself. The address bar is injected, so Node tests drive it.
 */
import { Store } from "../../state/store";
import type { ShareClient } from "./api-client";
import type { ShareLocation } from "./location";
import { openShareFile, openShareLocation, type OpenShareResult, type ShareSource } from "./open";

/** An opened share: what the banner shows and what `onOpen` receives. */
export type OpenedShare = Extract<OpenShareResult, { ok: true }>;

/** Where opening a share stands. */
export type ShareLinkState =
  | { status: "none" }
  | { status: "loading"; source: ShareSource }
  | { status: "open"; opened: OpenedShare }
  | { status: "error"; source: ShareSource; message: string };

export interface ShareLinkSnapshot {
  state: ShareLinkState;
  /** The person hid the banner; what the link brought stays. A share that opens shows it again. */
  hidden: boolean;
}

export interface ShareLinkOptions {
  client: ShareClient;
  /** Called once per share that opens. It must never start a run. */
  onOpen: (opened: OpenedShare) => void;
  /** Drops the share from the address bar (the banner was dismissed). */
  dropFromAddress?: () => void;
}

const NONE: ShareLinkSnapshot = { state: { status: "none" }, hidden: false };

export class ShareLinkStore extends Store<ShareLinkSnapshot> {
  #ticket = 0;

  constructor(private readonly options: ShareLinkOptions) {
    super(NONE);
  }

  /** Opens what the address bar points at; nothing when it points at no share. */
  openLocation(found: ShareLocation): void {
    if (found.kind === "none") return;
    const ticket = this.#begin(found.kind === "link" ? "link" : "short-link");
    void openShareLocation(found, this.options.client).then((result) => this.#settle(ticket, result));
  }

  /** Opens an exported share file (from a file input). */
  openFile(file: Pick<Blob, "text">): void {
    const ticket = this.#begin("file");
    file.text().then(
      (text) => this.#settle(ticket, openShareFile(text)),
      () => this.#settle(ticket, { ok: false, source: "file", message: "The file could not be read." }),
    );
  }

  /** Hides the banner and drops the share from the address bar; anything still opening is dropped too. */
  readonly dismiss = (): void => {
    this.#ticket++;
    this.set(NONE);
    this.options.dropFromAddress?.();
  };

  /** Hides or shows the banner of the share that is open. */
  setHidden(hidden: boolean): void {
    if (hidden !== this.snapshot().hidden) this.set({ ...this.snapshot(), hidden });
  }

  #begin(source: ShareSource): number {
    this.set({ state: { status: "loading", source }, hidden: false });
    return ++this.#ticket;
  }

  #settle(ticket: number, result: OpenShareResult): void {
    if (ticket !== this.#ticket) return;
    if (!result.ok) return this.set({ state: { status: "error", source: result.source, message: result.message }, hidden: false });
    this.set({ state: { status: "open", opened: result }, hidden: false });
    this.options.onOpen(result);
  }
}
