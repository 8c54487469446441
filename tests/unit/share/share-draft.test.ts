/**
 * The Share dialog's store (lib/share/browser/share-draft.ts) against the real short-link routes:
 * the inputs read once, a link when the share fits one, a short link stored and served back, a
 * short link refused with the server's words, a share too large for a link, and nothing settling
 * it after the dialog closed.
 */
import { describe, expect, it, vi } from "vitest";
import { createShareClient } from "@/lib/share/browser/api-client";
import { ShareDraft } from "@/lib/share/browser/share-draft";
import type { ShareInputs } from "@/lib/share/build";
import { decodeShareState } from "@/lib/share/decode";
import { setShortLinkRuntime } from "@/lib/share/server/short-link-runtime";
import { MARK, remoteWithSecrets } from "./helpers";
import { ORIGIN, routesClient as makeRoutesClient, shareDirPerTest } from "./short-link-routes";

shareDirPerTest("cmp-share-draft-");
const routesClient = makeRoutesClient();

describe("ShareDraft", () => {
  it("prepares the inputs as they were when it was made, once, and stores a short link that serves the same share", async () => {
    const inputs: { code: string; servers: ShareInputs["servers"] } = { code: "return await shipping.quote({});", servers: [remoteWithSecrets] };
    const draft = new ShareDraft(inputs, { origin: ORIGIN, client: routesClient });
    expect(draft.snapshot()).toEqual({ prep: { status: "preparing" }, shortLink: { status: "idle" } });
    await draft.createShortLink(); // before it is prepared: nothing
    expect(draft.snapshot().shortLink).toEqual({ status: "idle" });
    inputs.code = "typed after the dialog opened";
    await Promise.all([draft.prepare(), draft.prepare()]);

    const { prep } = draft.snapshot();
    if (prep.status !== "ready") throw new Error(`not ready: ${JSON.stringify(prep)}`);
    expect(prep.share.transport).toBe("link");
    expect(prep.link?.startsWith(`${ORIGIN}/#share=`)).toBe(true);
    expect(prep.link).not.toContain(MARK);
    const opened = await decodeShareState(prep.share.encoded);
    expect(opened.ok && opened.state.code).toBe("return await shipping.quote({});");

    const saving = draft.createShortLink();
    expect(draft.snapshot().shortLink).toEqual({ status: "saving" });
    await draft.createShortLink(); // a second click while saving stores nothing more
    await saving;
    const { shortLink } = draft.snapshot();
    if (shortLink.status !== "saved") throw new Error(`not saved: ${JSON.stringify(shortLink)}`);
    const id = /\/s\/([^/]+)$/.exec(shortLink.url)?.[1] ?? "";
    expect(shortLink.url).toBe(`${ORIGIN}/s/${id}`);
    const loaded = await routesClient.load(id);
    expect(loaded.ok && loaded.value.share).toBe(prep.share.encoded);
  });

  it("says in the server's words why a short link was refused, and that an unreachable server is unreachable", async () => {
    vi.stubEnv("CMP_SHARE_DISABLE", "1");
    setShortLinkRuntime(undefined);
    const draft = new ShareDraft({ code: "return 1;" }, { origin: ORIGIN, client: routesClient });
    await draft.prepare();
    await draft.createShortLink();
    const refused = draft.snapshot().shortLink;
    expect(refused.status === "error" && refused.message).toMatch(/\S/);

    const offline = new ShareDraft({ code: "return 1;" }, { origin: ORIGIN, client: createShareClient(() => Promise.reject(new Error("offline"))) });
    await offline.prepare();
    await offline.createShortLink();
    expect(offline.snapshot().shortLink).toEqual({ status: "error", message: "Could not reach the server for the short link." });
  });

  it("offers a short link, not a link, for a share too long for an address", async () => {
    // Random text hardly compresses: 60 000 characters of it are more than a link holds.
    const noise = Array.from({ length: 60_000 }, () => String.fromCharCode(33 + Math.floor(Math.random() * 90))).join("");
    const draft = new ShareDraft({ code: `return ${JSON.stringify(noise)};` }, { origin: ORIGIN, client: routesClient });
    await draft.prepare();
    const { prep } = draft.snapshot();
    if (prep.status !== "ready") throw new Error(`not ready: ${JSON.stringify(prep)}`);
    expect(prep.share.transport).toBe("short-link");
    expect(prep.link).toBeUndefined();
    await draft.createShortLink();
    const saved = draft.snapshot().shortLink;
    expect(saved.status === "saved" && saved.url).toMatch(/^http:\/\/localhost:3000\/s\//);
  });

  it("settles nothing once disposed, and takes itself back when prepared again", async () => {
    const draft = new ShareDraft({ code: "return 1;" }, { origin: ORIGIN, client: routesClient });
    const preparing = draft.prepare();
    draft.dispose();
    await preparing;
    expect(draft.snapshot().prep).toEqual({ status: "preparing" });

    const remounted = new ShareDraft({ code: "return 2;" }, { origin: ORIGIN, client: routesClient });
    const first = remounted.prepare();
    remounted.dispose();
    await Promise.all([first, remounted.prepare()]);
    expect(remounted.snapshot().prep.status).toBe("ready");
  });
});
