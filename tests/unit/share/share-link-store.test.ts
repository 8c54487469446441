/**
 * Opening a share as the page keeps it (lib/share/browser/share-link-store.ts): a link, a short
 * link through the client, a file; errors as words; only the newest request settles; dismissing
 * drops a request still on its way and the share from the address bar; nothing but `onOpen` runs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ShareClient } from "@/lib/share/browser/api-client";
import { ShareLinkStore, type OpenedShare } from "@/lib/share/browser/share-link-store";
import { encodeShareState } from "@/lib/share/encode";
import { shareStateToFile } from "@/lib/share/file-format";
import type { ShareState } from "@/lib/share/schema";
import { until } from "../timeline/helpers";

const base = JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", "v1-state.json"), "utf8")) as ShareState;

/** A short-link client whose loads wait until the test answers them. */
function slowClient() {
  const waiting: Array<(share: string | undefined) => void> = [];
  const client: ShareClient = {
    save: () => Promise.reject(new Error("not in this test")),
    load: () =>
      new Promise((resolve) => {
        waiting.push((share) =>
          resolve(
            share === undefined
              ? { ok: false, status: 404, message: "This short link does not exist (or has expired)." }
              : { ok: true, value: { id: "abc", share } },
          ),
        );
      }),
  };
  return { client, waiting };
}

function store(client: ShareClient) {
  const opened: OpenedShare[] = [];
  let dropped = 0;
  const links = new ShareLinkStore({ client, onOpen: (share) => void opened.push(share), dropFromAddress: () => void dropped++ });
  return { links, opened, dropped: () => dropped };
}

describe("ShareLinkStore", () => {
  it("opens a link once, shows its banner again when a share opens, and says what is wrong with a broken one", async () => {
    const { links, opened } = store(slowClient().client);
    links.openLocation({ kind: "none" });
    expect(links.snapshot().state).toEqual({ status: "none" });
    links.openLocation({ kind: "link", encoded: await encodeShareState({ ...base, code: "return 1;" }) });
    expect(links.snapshot().state).toEqual({ status: "loading", source: "link" });
    await until(() => links.snapshot().state.status === "open", "the link");
    expect(opened).toHaveLength(1);
    expect(opened[0]?.state.code).toBe("return 1;");
    links.setHidden(true);
    expect(links.snapshot().hidden).toBe(true);

    links.openLocation({ kind: "link", encoded: "not-a-share" });
    await until(() => links.snapshot().state.status === "error", "the error");
    expect(links.snapshot()).toMatchObject({ state: { status: "error", source: "link" }, hidden: false });
    expect(opened).toHaveLength(1);
    links.openLocation({ kind: "invalid", message: "That short link id is malformed." });
    await until(() => {
      const { state } = links.snapshot();
      return state.status === "error" && state.source === "short-link";
    }, "the refusal");
  });

  it("only the newest request settles: a slow short link does not replace a file opened since", async () => {
    const { client, waiting } = slowClient();
    const { links, opened } = store(client);
    links.openLocation({ kind: "stored", id: "abc" });
    expect(links.snapshot().state).toEqual({ status: "loading", source: "short-link" });
    links.openFile(new Blob([shareStateToFile({ ...base, code: "from the file" })]));
    await until(() => links.snapshot().state.status === "open", "the file");
    waiting[0]?.(await encodeShareState({ ...base, code: "from the short link" }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(opened.map((share) => share.state.code)).toEqual(["from the file"]);
    expect(links.snapshot().state).toMatchObject({ status: "open", opened: { source: "file" } });
  });

  it("a short link that is gone, and a file that is not a share, say so", async () => {
    const { client, waiting } = slowClient();
    const { links, opened } = store(client);
    links.openLocation({ kind: "stored", id: "gone" });
    waiting[0]?.(undefined);
    await until(() => links.snapshot().state.status === "error", "the error");
    expect(links.snapshot().state).toEqual({ status: "error", source: "short-link", message: "This short link does not exist (or has expired)." });
    links.openFile(new Blob(["{ not json"]));
    await until(() => {
      const { state } = links.snapshot();
      return state.status === "error" && state.source === "file";
    }, "the file's error");
    const unreadable = { text: () => Promise.reject(new Error("gone")) };
    links.openFile(unreadable);
    await until(() => {
      const { state } = links.snapshot();
      return state.status === "error" && state.message === "The file could not be read.";
    }, "the read error");
    expect(opened).toEqual([]);
  });

  it("dismissing drops the banner, the address bar's share, and a request still on its way", async () => {
    const { client, waiting } = slowClient();
    const { links, opened, dropped } = store(client);
    links.openLocation({ kind: "stored", id: "abc" });
    links.dismiss();
    expect(links.snapshot()).toEqual({ state: { status: "none" }, hidden: false });
    expect(dropped()).toBe(1);
    waiting[0]?.(await encodeShareState(base));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(links.snapshot().state).toEqual({ status: "none" });
    expect(opened).toEqual([]);
  });
});
