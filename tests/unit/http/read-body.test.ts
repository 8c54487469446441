/** Finding 7: one reader for every route, counting bytes and refusing before it buffers past the cap. */
import { describe, expect, it } from "vitest";
import { readBodyText, readJsonBody } from "@/lib/http/read-body";
import { RouteError } from "@/lib/http/route-error";

/** A body that would never end, counting how many chunks the reader pulled. */
function endless(chunkBytes: number): { request: Request; pulled: () => number } {
  let pulled = 0;
  // highWaterMark 0: the stream pulls only when someone reads.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(chunkBytes).fill(97));
      },
    },
    { highWaterMark: 0 },
  );
  return { request: new Request("http://a/", { method: "POST", body, duplex: "half" } as RequestInit), pulled: () => pulled };
}

describe("readBodyText", () => {
  it("stops reading an endless body just past the cap", async () => {
    const { request, pulled } = endless(1024);
    expect(await readBodyText(request, 10 * 1024)).toEqual({ ok: false, reason: "too_large" });
    expect(pulled()).toBeLessThanOrEqual(12);
  });

  it("refuses a declared Content-Length over the cap without reading anything", async () => {
    const { request, pulled } = endless(1024);
    request.headers.set("content-length", "999999");
    expect(await readBodyText(request, 1024)).toEqual({ ok: false, reason: "too_large" });
    expect(pulled()).toBe(0);
  });

  it("counts bytes, not UTF-16 code units", async () => {
    const text = "é".repeat(100); // 100 code units, 200 bytes
    expect(await readBodyText(new Request("http://a/", { method: "POST", body: text }), 150)).toEqual({ ok: false, reason: "too_large" });
    expect(await readBodyText(new Request("http://a/", { method: "POST", body: text }), 200)).toEqual({ ok: true, text });
  });
});

describe("readJsonBody", () => {
  it("throws RouteErrors with the route's surface", async () => {
    const tooLarge = await readJsonBody(new Request("http://a/", { method: "POST", body: "[1,2,3]" }), 3, "share").catch((e: unknown) => e);
    expect(tooLarge).toBeInstanceOf(RouteError);
    expect((tooLarge as RouteError).code).toBe("too_large:share");
    const notJson = await readJsonBody(new Request("http://a/", { method: "POST", body: "{" }), 100, "chat").catch((e: unknown) => e);
    expect((notJson as RouteError).code).toBe("bad_request:chat");
    expect(await readJsonBody(new Request("http://a/", { method: "POST", body: '{"a":1}' }), 100, "chat")).toEqual({ a: 1 });
  });
});
