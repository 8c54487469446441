import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import * as createRoute from "@/app/api/share/route";
import * as getRoute from "@/app/api/share/[id]/route";
import ShortLinkPage from "@/app/s/[id]/page";
import { createShareClient } from "@/lib/share/browser/api-client";
import { decodeShareState } from "@/lib/share/decode";
import { encodeShareState } from "@/lib/share/encode";
import type { ShareState } from "@/lib/share/schema";
import { createShortLinkRuntime, setShortLinkRuntime, shortLinkConfigFromEnv } from "@/lib/share/server/short-link-runtime";
import { createMemoryShareStore } from "@/lib/share/server/store";
import { ORIGIN, routesClient, shareDirPerTest } from "./short-link-routes";

const base = JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", "v1-state.json"), "utf8")) as ShareState;

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return createRoute.POST(
    new Request(`${ORIGIN}/api/share`, { method: "POST", body: text, headers: { "content-type": "application/json", origin: ORIGIN, ...headers } }),
    undefined,
  );
}

function get(id: string, headers: Record<string, string> = {}): Promise<Response> {
  return getRoute.GET(new Request(`${ORIGIN}/api/share/${encodeURIComponent(id)}`, { headers }), { params: Promise.resolve({ id }) });
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

const shareDir = shareDirPerTest("cmp-share-routes-");

describe("POST /api/share and GET /api/share/<id>", () => {
  it("stores a share under CMP_SHARE_DIR and serves it back", async () => {
    const share = await encodeShareState(base);
    const created = await post({ share });
    expect(created.status).toBe(201);
    const { id, path: shortPath } = (await created.json()) as { id: string; path: string };
    expect(shortPath).toBe(`/s/${id}`);
    expect(readdirSync(shareDir(), { recursive: true, encoding: "utf8" }).some((f) => f.endsWith(`${id}.share`))).toBe(true);

    const again = await post({ share });
    expect([again.status, ((await again.json()) as { id: string }).id]).toEqual([200, id]);

    const fetched = await get(id);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("cache-control")).toBe("private, max-age=3600");
    const body = (await fetched.json()) as { id: string; share: string };
    const decoded = await decodeShareState(body.share);
    expect(decoded.ok && decoded.state).toEqual(base);
  });

  it("answers bad requests with JSON errors", async () => {
    expect([await post("{nope").then((r) => r.status)]).toEqual([400]);
    const wrongShape = await post({ link: "v1.x" });
    expect([wrongShape.status, await errorCode(wrongShape)]).toEqual([400, "bad_request:share"]);
    const invalid = await post({ share: "v1.AAAA" });
    expect([invalid.status, await errorCode(invalid)]).toEqual([400, "bad_request:share"]);
    const huge = await post({ share: `v1.${"A".repeat(2 * 1024 * 1024)}` });
    expect([huge.status, await errorCode(huge)]).toEqual([413, "too_large:share"]);
  });

  it("answers unknown, malformed and traversal ids", async () => {
    const missing = await get("AbCdEfGhIjKlMnOpQrStUv");
    expect([missing.status, await errorCode(missing)]).toEqual([404, "not_found:share"]);
    for (const id of ["../../etc/passwd", "..", "a".repeat(100)]) {
      const refused = await get(id);
      expect([refused.status, await errorCode(refused)]).toEqual([400, "bad_request:share"]);
    }
  });

  it("rate-limits creation per client, with Retry-After, using an injected clock", async () => {
    // scripts/serve.mjs writes X-Forwarded-For itself and says so; only then is it a client key.
    vi.stubEnv("CMP_SERVER", "serve");
    let now = 0;
    setShortLinkRuntime(
      createShortLinkRuntime(
        { ...shortLinkConfigFromEnv({ CMP_SHARE_RATE_PER_MINUTE: "2" }), dir: shareDir() },
        { store: createMemoryShareStore(), now: () => now },
      ),
    );
    const share = await encodeShareState(base);
    const alice = { "x-forwarded-for": "198.51.100.1" };
    expect((await post({ share }, alice)).ok).toBe(true);
    expect((await post({ share }, alice)).ok).toBe(true);
    const limited = await post({ share }, alice);
    expect([limited.status, limited.headers.get("retry-after"), await errorCode(limited)]).toEqual([429, "30", "rate_limited:share"]);
    expect((await post({ share }, { "x-forwarded-for": "198.51.100.2" })).ok).toBe(true);
    now += 30_000;
    expect((await post({ share }, alice)).ok).toBe(true);
  });

  it("keeps a global limit that forged client keys cannot dodge", async () => {
    setShortLinkRuntime(
      createShortLinkRuntime(
        { ...shortLinkConfigFromEnv({ CMP_SHARE_GLOBAL_RATE_PER_MINUTE: "3" }), dir: shareDir() },
        { store: createMemoryShareStore(), now: () => 0 },
      ),
    );
    const share = await encodeShareState(base);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post({ share }, { "x-forwarded-for": `203.0.113.${i}` })).status);
    expect(statuses).toEqual([201, 200, 200, 429, 429]);
  });

  it("does not trust a client's own X-Forwarded-For: rotating it buys no fresh bucket (finding 6)", async () => {
    setShortLinkRuntime(
      createShortLinkRuntime(
        { ...shortLinkConfigFromEnv({ CMP_SHARE_RATE_PER_MINUTE: "2" }), dir: shareDir() },
        { store: createMemoryShareStore(), now: () => 0 },
      ),
    );
    const share = await encodeShareState(base);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post({ share }, { "x-forwarded-for": `203.0.113.${i}` })).status);
    expect(statuses).toEqual([201, 200, 429, 429]);
  });

  it("caps the bytes one client stores per day (finding 6)", async () => {
    vi.stubEnv("CMP_SERVER", "serve");
    const share = await encodeShareState(base);
    const config = shortLinkConfigFromEnv({ CMP_SHARE_CLIENT_BYTES_PER_DAY: String(share.length * 2 + 10), CMP_SHARE_RATE_PER_MINUTE: "100" });
    setShortLinkRuntime(createShortLinkRuntime({ ...config, dir: shareDir() }, { store: createMemoryShareStore(), now: () => 0 }));
    const alice = { "x-forwarded-for": "198.51.100.1" };
    const statuses = [];
    for (const code of ["return 1;", "return 2;", "return 3;"]) statuses.push((await post({ share: await encodeShareState({ ...base, code }) }, alice)).status);
    expect(statuses).toEqual([201, 201, 429]);
    expect((await post({ share }, { "x-forwarded-for": "198.51.100.2" })).status).toBe(201);
  });

  it("refuses a foreign origin, a rebound Host and a text/plain body (finding 2)", async () => {
    const share = await encodeShareState(base);
    const foreign = await post({ share }, { origin: "https://evil.example" });
    expect([foreign.status, await errorCode(foreign)]).toEqual([403, "refused:share"]);
    const rebound = await post({ share }, { host: "evil.example:3000", origin: "http://evil.example:3000" });
    expect([rebound.status, await errorCode(rebound)]).toEqual([403, "refused:share"]);
    const plain = await post({ share }, { "content-type": "text/plain" });
    expect([plain.status, await errorCode(plain)]).toEqual([415, "unsupported_media_type:share"]);
  });

  it("is off with CMP_SHARE_DISABLE=1", async () => {
    vi.stubEnv("CMP_SHARE_DISABLE", "1");
    setShortLinkRuntime(undefined);
    expect((await post({ share: await encodeShareState(base) })).status).toBe(404);
    expect((await get("AbCdEfGhIjKlMnOpQrStUv")).status).toBe(404);
  });

  it("serves the browser client end to end", async () => {
    const client = routesClient();
    const saved = await client.save(await encodeShareState(base));
    if (!saved.ok) throw new Error(saved.message);
    const loaded = await client.load(saved.value.id);
    expect(loaded.ok && (await decodeShareState(loaded.value.share)).ok).toBe(true);
    expect(await client.load("AbCdEfGhIjKlMnOpQrStUv")).toEqual({ ok: false, status: 404, message: "No share is stored under this link." });
    expect(await client.load("../x")).toMatchObject({ ok: false, status: 400 });
    expect(await createShareClient(() => Promise.reject(new Error("offline"))).save("v1.x")).toMatchObject({ ok: false, status: 0 });
  });
});

describe("config from the environment", () => {
  it("has defaults and ignores nonsense", () => {
    expect(shortLinkConfigFromEnv({})).toEqual({
      enabled: true,
      dir: ".data/shares",
      maxTotalBytes: 512 * 1024 * 1024,
      ttlMs: 30 * 24 * 3600_000,
      perClientPerMinute: 10,
      clientBytesPerDay: 16 * 1024 * 1024,
      globalPerMinute: 300,
      readsPerClientPerMinute: 120,
    });
    expect(shortLinkConfigFromEnv({ CMP_SHARE_RATE_PER_MINUTE: "-4", CMP_SHARE_MAX_TOTAL_BYTES: "lots", CMP_SHARE_DIR: " " })).toMatchObject({
      dir: ".data/shares",
      perClientPerMinute: 10,
      maxTotalBytes: 512 * 1024 * 1024,
    });
  });
});

describe("/s/<id>", () => {
  async function outcome(id: string): Promise<string> {
    try {
      await ShortLinkPage({ params: Promise.resolve({ id }) });
      return "rendered";
    } catch (error) {
      return String((error as { digest?: unknown }).digest);
    }
  }

  it("redirects to the playground with the id in the fragment", async () => {
    expect(await outcome("AbCdEfGhIjKlMnOpQrStUv")).toMatch(/^NEXT_REDIRECT;\w+;\/#share-id=AbCdEfGhIjKlMnOpQrStUv;307;/);
  });

  it("is a 404 for a malformed id", async () => {
    expect(await outcome("../etc")).toMatch(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
  });
});
