/**
 * Finding 4: the OpenAI-compatible base-URL guard checked text only, so a public-looking name
 * that resolves to a metadata or loopback address, or a redirect from an allowed host, reached
 * internal addresses. The guarded fetch checks the address it connects to and every hop.
 */
import type { LookupAddress } from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleChatRequest } from "@/lib/model/server/chat-handler";
import { createGuardedFetch, GuardRefusedError } from "@/lib/net/server/guarded-fetch";
import type { ResolveAll } from "@/lib/net/server/guarded-lookup";
import { startLoopbackServer } from "@/lib/http/node/loopback-server";
import type { LoopbackServer } from "@/lib/http/node/loopback-server";
import { readChunks } from "../../fixtures/model/ui-stream";

let inside: LoopbackServer;
let hits = 0;
const paths: string[] = [];
let port = "";

// What a public DNS would answer: these names look public, their addresses are not.
const resolveAll: ResolveAll = (hostname) => {
  const table: Record<string, LookupAddress[]> = {
    "169.254.169.254.nip.io": [{ address: "169.254.169.254", family: 4 }],
    "loopback.example": [{ address: "127.0.0.1", family: 4 }],
    "public.example": [{ address: "93.184.216.34", family: 4 }],
  };
  const answer = table[hostname];
  return answer ? Promise.resolve(answer) : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
};

beforeAll(async () => {
  // A server on loopback: "the internal service" the attacker wants to reach.
  inside = await startLoopbackServer((request) => {
    hits++;
    const path = new URL(request.url).pathname;
    paths.push(path);
    if (path === "/to-metadata") return Promise.resolve(new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } }));
    if (path === "/to-self") return Promise.resolve(new Response(null, { status: 307, headers: { location: "/v1/ok" } }));
    return Promise.resolve(Response.json({ path, method: request.method }));
  });
  port = new URL(inside.url).port;
});
afterAll(() => inside.close());

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("guarded fetch", () => {
  it("refuses a public-looking name that resolves to a metadata or loopback address, at connect time", async () => {
    const guarded = createGuardedFetch({ resolveAll });
    const before = hits;
    const metadata = await failure(guarded(`http://169.254.169.254.nip.io:${port}/v1/models`));
    expect(metadata).toBeInstanceOf(GuardRefusedError);
    expect(String(metadata)).toContain("169.254.169.254");
    const loop = await failure(guarded(`http://loopback.example:${port}/v1/models`));
    expect(String(loop)).toMatch(/loopback/);
    expect(hits).toBe(before);
  });

  it("follows redirects through the guard: a hop to a refused address fails, an allowed one is followed", async () => {
    const guarded = createGuardedFetch({ resolveAll, allowList: ["127.0.0.1"] });
    expect(String(await failure(guarded(`http://127.0.0.1:${port}/to-metadata`, { method: "POST", body: "{}" })))).toMatch(/link-local/);
    const followed = await guarded(`http://127.0.0.1:${port}/to-self`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(await followed.json()).toEqual({ path: "/v1/ok", method: "POST" });
  });

  it("lets allow-listed private targets through, with status, headers and a streamed body", async () => {
    const guarded = createGuardedFetch({ resolveAll, allowList: ["loopback.example"] });
    const response = await guarded(`http://loopback.example:${port}/v1/models`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({ path: "/v1/models", method: "GET" });
  });
});

describe("the chat route's OpenAI-compatible provider uses it", () => {
  it("refuses a base URL whose name resolves to loopback on a hosted instance; the internal server sees nothing", async () => {
    const request = new Request("http://play.example/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }],
        model: { provider: "openai-compatible", modelId: "m", baseURL: `http://loopback.example:${port}/v1` },
        instructions: "",
      }),
    });
    const response = await handleChatRequest(request, { env: {}, resolveAll });
    const chunks = await readChunks(response);
    const error = chunks.find((c) => c.type === "error") as { errorText: string } | undefined;
    expect(error?.errorText).toMatch(/Refused to connect: loopback\.example resolves to 127\.0\.0\.1/);
    expect(paths.filter((p) => p.startsWith("/v1/chat"))).toEqual([]);
  });
});
