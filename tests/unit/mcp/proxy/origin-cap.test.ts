import { describe, expect, it } from "vitest";
import { capPerOrigin } from "@/lib/mcp/proxy/origin-cap";
import type { FetchLike } from "@/lib/mcp/proxy/proxy-fetch";

const APP = "http://127.0.0.1:3000";

/** A direct fetch whose answers stream until the test ends them; and an overflow that records. */
function fakes(proxyAnswer: () => Response = () => new Response("via proxy")) {
  const open: Array<{ url: string; end: () => void }> = [];
  const direct: FetchLike = (input) => {
    const url = String(input);
    let end = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("direct"));
        end = () => controller.close();
      },
    });
    open.push({ url, end: () => end() });
    return Promise.resolve(new Response(body));
  };
  const diverted: string[] = [];
  const overflow: FetchLike = (input) => {
    diverted.push(String(input));
    return Promise.resolve(proxyAnswer());
  };
  return { direct, overflow, open, diverted };
}

describe("capPerOrigin", () => {
  it("sends two requests at once straight to an origin and the third through the proxy; a finished body frees its place", async () => {
    const { direct, overflow, open, diverted } = fakes();
    const fetch = capPerOrigin(direct, overflow, { max: 2, appOrigin: APP });
    const first = await fetch("https://mcp.example.com/mcp");
    await fetch("https://mcp.example.com/mcp");
    expect(await (await fetch("https://mcp.example.com/mcp")).text()).toBe("via proxy");
    // Another origin has places of its own; the app's own origin is never counted.
    await fetch("https://other.example.com/mcp");
    for (let i = 0; i < 5; i++) await fetch(`${APP}/api/mcp/proxy`);
    expect(diverted).toEqual(["https://mcp.example.com/mcp"]);
    // The first answer read to its end: its place is free again.
    const reading = first.text();
    open[0]?.end();
    expect(await reading).toBe("direct");
    await fetch("https://mcp.example.com/mcp");
    expect(diverted).toHaveLength(1);
    expect(open.filter((o) => o.url === "https://mcp.example.com/mcp")).toHaveLength(3);
  });

  it("a cancelled body and a failed request free their place too", async () => {
    const { direct, overflow, diverted } = fakes();
    let fail = false;
    const flaky: FetchLike = (input, init) => (fail ? Promise.reject(new TypeError("network")) : direct(input, init));
    const fetch = capPerOrigin(flaky, overflow, { max: 1, appOrigin: APP });
    const held = await fetch("https://mcp.example.com/mcp");
    await held.body?.cancel();
    fail = true;
    await expect(fetch("https://mcp.example.com/mcp")).rejects.toThrow("network");
    fail = false;
    await fetch("https://mcp.example.com/mcp");
    expect(diverted).toEqual([]);
  });

  it("when the proxy refuses the target (a hosted app and a private address), the request goes direct after all", async () => {
    const refused = () => Response.json({ error: { code: "refused:proxy", message: "private address" } }, { status: 403 });
    const { direct, overflow, open, diverted } = fakes(refused);
    const fetch = capPerOrigin(direct, overflow, { max: 1, appOrigin: APP });
    await fetch("http://10.0.0.5/mcp");
    const second = await fetch("http://10.0.0.5/mcp");
    expect(diverted).toHaveLength(1);
    expect(open).toHaveLength(2);
    expect(second.status).toBe(200);
  });
});
