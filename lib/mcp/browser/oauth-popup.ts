/**
 * The authorization step in the page: the authorization URL opens in a popup, which the person
 * uses to sign in; the authorization server sends it back to /oauth/callback, which hands its
 * URL to this page over a BroadcastChannel (and `window.opener`, when the browser kept it), and
 * closes. Popups need a click: `arm()` opens the window during the click (blank, "Preparing
 * sign-in…") and the flow points it at the authorization URL once discovery has built it. When
 * the browser blocks the popup, the flow continues in this window: the page goes to the
 * authorization server and the callback brings the person back to "/" with the result in
 * sessionStorage, where `takeReturned` finds it. Without a click (a connect on page load) the
 * flow stops with AuthorizationNeeded, and the server's card offers "Sign in".
 */
import { readCallback } from "../oauth/headless";
import { AuthorizationNeeded, OAuthFlowError } from "../oauth/oauth-fetch";
import type { AuthorizationResult, Authorizer } from "../oauth/oauth-fetch";

/** The BroadcastChannel the callback page speaks on. */
export const CALLBACK_CHANNEL = "cmp-oauth";
/** sessionStorage: the flow that left this window for the authorization server. */
export const LEFT_FOR_AUTHORIZATION_KEY = "cmp-oauth-pending";
/** sessionStorage: what the callback brought back to this window. */
export const RETURNED_KEY = "cmp-oauth-return";
/** How long after the popup closed a late callback message is still waited for. */
const CLOSED_GRACE_MS = 1_500;
/** How long a popup may stay open before the flow gives up. */
export const POPUP_TIMEOUT_MS = 5 * 60_000;

/** What the callback page sends. */
export interface CallbackMessage {
  type: "cmp-oauth-callback";
  href: string;
}

export function isCallbackMessage(value: unknown): value is CallbackMessage {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "cmp-oauth-callback" &&
    typeof (value as { href?: unknown }).href === "string"
  );
}

interface Armed {
  serverId: string;
  popup: Window | null;
}

/** The page's authorizer; one per page. */
export class PopupAuthorizer {
  private armed: Armed | undefined;

  constructor(private readonly win: Window = window) {}

  /** Call inside the click that asked to sign in: opens the popup while the browser allows it. */
  arm(serverId: string): void {
    this.armed?.popup?.close();
    const popup = this.win.open("", `cmp-oauth-${serverId}`, "popup,width=520,height=720");
    if (popup) {
      try {
        popup.document.title = "Signing in…";
        popup.document.body.textContent = "Preparing sign-in…";
      } catch {
        // A popup we cannot write to still navigates.
      }
    }
    this.armed = { serverId, popup };
  }

  /** Forgets a click that did not lead to a flow (the server was already signed in). */
  disarm(serverId: string): void {
    if (this.armed?.serverId !== serverId) return;
    const popup = this.armed.popup;
    this.armed = undefined;
    let blank = false;
    try {
      blank = popup !== null && !popup.closed && popup.location.href === "about:blank";
    } catch {
      // Cross-origin: the person is on the authorization server's page; leave it.
    }
    if (blank) popup?.close();
  }

  /** The result a same-window sign-in brought back for this server (once). */
  takeReturned(serverId: string): AuthorizationResult | undefined {
    const storage = this.win.sessionStorage;
    const raw = storage.getItem(RETURNED_KEY);
    if (!raw) return undefined;
    let parsed: { serverId?: unknown; href?: unknown };
    try {
      parsed = JSON.parse(raw) as { serverId?: unknown; href?: unknown };
    } catch {
      storage.removeItem(RETURNED_KEY);
      return undefined;
    }
    if (parsed.serverId !== serverId || typeof parsed.href !== "string") return undefined;
    storage.removeItem(RETURNED_KEY);
    return readCallback(new URL(parsed.href));
  }

  /** The Authorizer for one server's session. */
  authorizerFor(serverId: string, serverName: string): Authorizer {
    return (url) => {
      const armed = this.armed?.serverId === serverId ? this.armed : undefined;
      if (!armed) return Promise.reject(new AuthorizationNeeded(`${serverName} uses OAuth: press "Sign in" on its card to authorize the playground.`));
      this.armed = undefined;
      if (!armed.popup || armed.popup.closed) return this.sameWindow(serverId, url);
      return this.viaPopup(armed.popup, url);
    };
  }

  private sameWindow(serverId: string, url: URL): Promise<AuthorizationResult> {
    this.win.sessionStorage.setItem(LEFT_FOR_AUTHORIZATION_KEY, JSON.stringify({ serverId, at: Date.now() }));
    this.win.location.assign(url.href);
    // The page is leaving; the callback brings the result to the next load.
    return new Promise<AuthorizationResult>(() => undefined);
  }

  private viaPopup(popup: Window, url: URL): Promise<AuthorizationResult> {
    const expectedState = url.searchParams.get("state");
    popup.location.href = url.href;
    return new Promise<AuthorizationResult>((resolve, reject) => {
      const channel = typeof BroadcastChannel === "undefined" ? undefined : new BroadcastChannel(CALLBACK_CHANNEL);
      const finish = () => {
        clearInterval(poll);
        clearTimeout(timer);
        channel?.close();
        this.win.removeEventListener("message", onWindowMessage);
      };
      const accept = (message: CallbackMessage) => {
        let callback: URL;
        try {
          callback = new URL(message.href);
        } catch {
          return;
        }
        // Another flow's callback (another server's popup) is not ours to take.
        if (expectedState !== null && callback.searchParams.get("state") !== expectedState) return;
        finish();
        try {
          popup.close();
        } catch {
          // Already closed.
        }
        try {
          resolve(readCallback(callback));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
      const onWindowMessage = (event: MessageEvent) => {
        if (event.origin === this.win.location.origin && isCallbackMessage(event.data)) accept(event.data);
      };
      if (channel) channel.onmessage = (event: MessageEvent) => (isCallbackMessage(event.data) ? accept(event.data) : undefined);
      this.win.addEventListener("message", onWindowMessage);
      // The callback posts its result and closes itself at once, and the close may be seen before
      // the message arrives (two task sources): a closed window only fails the flow if no result
      // follows within CLOSED_GRACE_MS.
      let closedAt: number | undefined;
      const poll = setInterval(() => {
        if (!popup.closed) return;
        closedAt ??= Date.now();
        if (Date.now() - closedAt < CLOSED_GRACE_MS) return;
        finish();
        reject(new OAuthFlowError('The sign-in window was closed before it finished. Press "Sign in" to try again.'));
      }, 200);
      const timer = setTimeout(() => {
        finish();
        popup.close();
        reject(new OAuthFlowError(`Nobody finished signing in within ${POPUP_TIMEOUT_MS / 60_000} minutes; the flow stopped. Press "Sign in" to try again.`));
      }, POPUP_TIMEOUT_MS);
    });
  }
}

/** Where the callback page's result went. */
export type CallbackDelivery = "popup" | "same-window" | "orphan";

/**
 * Run by /oauth/callback: hands its URL to the page that started the flow. In a popup: over the
 * BroadcastChannel and to `window.opener`, then the window closes. In the window that left for
 * the authorization server (same-window fallback): into sessionStorage, then back to "/".
 */
export function deliverCallback(win: Window = window): CallbackDelivery {
  const message: CallbackMessage = { type: "cmp-oauth-callback", href: win.location.href };
  const left = win.sessionStorage.getItem(LEFT_FOR_AUTHORIZATION_KEY);
  if (left) {
    win.sessionStorage.removeItem(LEFT_FOR_AUTHORIZATION_KEY);
    let serverId: unknown;
    try {
      serverId = (JSON.parse(left) as { serverId?: unknown }).serverId;
    } catch {
      serverId = undefined;
    }
    if (typeof serverId === "string") {
      win.sessionStorage.setItem(RETURNED_KEY, JSON.stringify({ serverId, href: message.href }));
      win.location.replace("/");
      return "same-window";
    }
  }
  if (typeof BroadcastChannel !== "undefined") {
    const channel = new BroadcastChannel(CALLBACK_CHANNEL);
    channel.postMessage(message);
    channel.close();
  }
  const opener = win.opener as Window | null;
  if (opener) {
    opener.postMessage(message, win.location.origin);
    return "popup";
  }
  return "orphan";
}
