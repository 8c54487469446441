import { describe, expect, it, vi } from "vitest";
import { withoutDemoGetStream } from "@/lib/mcp/demo-fetch";

describe("withoutDemoGetStream", () => {
  const origin = "http://127.0.0.1:3000";

  it("answers the GET stream of our own demo routes locally with 405", async () => {
    const base = vi.fn(() => Promise.resolve(new Response("network")));
    const fetch = withoutDemoGetStream(base, origin);
    const response = await fetch(`${origin}/api/demo-mcp/shipping`, { method: "GET", headers: { accept: "text/event-stream" } });
    expect(response.status).toBe(405);
    expect(base).not.toHaveBeenCalled();
  });

  it("passes POSTs, other paths and other origins through", async () => {
    const base = vi.fn(() => Promise.resolve(new Response("network")));
    const fetch = withoutDemoGetStream(base, origin);
    await fetch(`${origin}/api/demo-mcp/shipping`, { method: "POST", body: "{}" });
    await fetch(`${origin}/api/mcp/stdio/abc`, { method: "GET" });
    await fetch("http://other.example/api/demo-mcp/shipping", { method: "GET" });
    expect(base).toHaveBeenCalledTimes(3);
  });
});
