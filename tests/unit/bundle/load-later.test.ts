import { describe, expect, it } from "vitest";
import { loadLater } from "@/lib/bundle/load-later";
import { loadMcpAuth, loadMcpSdk } from "@/lib/mcp/sdk";
import { loadUiStream } from "@/lib/model/ui-stream-loader";

describe("loadLater", () => {
  it("loads once, at the first call, and shares the load with later calls", async () => {
    let loads = 0;
    const load = loadLater(() => Promise.resolve({ n: ++loads }), "a module");
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });

  it("says what failed to load and what to do, and tries again on the next call", async () => {
    let attempt = 0;
    const load = loadLater(
      () =>
        ++attempt === 1 ? Promise.reject(new TypeError("Failed to fetch dynamically imported module: /_next/static/chunks/x.js")) : Promise.resolve("loaded"),
      "its MCP client",
    );
    const error = await load().then(
      () => new Error("the first load did not fail"),
      (e: unknown) => e as Error,
    );
    expect(error.message).toBe(
      "The playground could not load its MCP client (Failed to fetch dynamically imported module: /_next/static/chunks/x.js). Reload the page.",
    );
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(await load()).toBe("loaded");
    expect(attempt).toBe(2);
  });

  it("the MCP SDK's client and the AI SDK's stream load as modules with what their callers use", async () => {
    const sdk = await loadMcpSdk();
    expect(typeof sdk.Client).toBe("function");
    expect(typeof sdk.StreamableHTTPClientTransport).toBe("function");
    expect(typeof (await loadMcpAuth()).auth).toBe("function");
    expect(sdk.SUPPORTED_PROTOCOL_VERSIONS.length).toBeGreaterThan(0);
    expect(sdk.SUPPORTED_PROTOCOL_VERSIONS).toContain("2025-11-25");
    const stream = await loadUiStream();
    expect(typeof stream.readUIMessageStream).toBe("function");
    expect(typeof stream.DefaultChatTransport).toBe("function");
  });
});
