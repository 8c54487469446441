import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer, type McpConnection } from "@/lib/mcp/connection";
import { demoServerPath } from "@/lib/demo-servers/catalog";
import { buildHostFunctions } from "@/lib/host-calls/mcp-tools";
import { runInNode } from "@/lib/sandbox/node/node-engine";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";

// Issue 3, bad input: a 10 MB tool result must give a clear outcome in the guest and never hang.
let demo: Awaited<ReturnType<typeof startDemoHost>>;
let connection: McpConnection;

beforeAll(async () => {
  demo = await startDemoHost();
  connection = await connectToServer(
    { id: "lab", name: "lab", transport: "streamable-http", url: demoServerPath("lab"), headers: {}, enabled: true },
    { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" },
  );
});
afterAll(async () => {
  await connection.close();
  await demo.close();
});

async function hostWithLab() {
  const tools = await connection.listTools();
  const sizes: number[] = [];
  const { host } = buildHostFunctions([{ name: "lab", connection, tools }], {
    onCallInfo: (_id, info) => {
      if (info.resultBytes !== undefined) sizes.push(info.resultBytes);
    },
  });
  return { host, sizes };
}

describe("a 10 MB tool result", () => {
  it("reaches the guest, which can work with it, and its size is reported", async () => {
    const { host, sizes } = await hostWithLab();
    const result = await runInNode({ code: "const r = await lab.big({ kb: 10240 });\nreturn { items: r.items.length, kb: r.kb };" }, host);
    expect(result.ok ? result.value : result.error).toEqual({ items: 10240, kb: 10240 });
    expect(sizes[0]).toBeGreaterThan(10 * 1024 * 1024);
  }, 60_000);

  it("returned as is, ends with a limit error naming the result cap, and the engine carries on", async () => {
    const { host } = await hostWithLab();
    const result = await runInNode({ code: "return await lab.big({ kb: 10240 });" }, host);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe("limit");
      expect(result.error.limit).toBe("resultBytes");
    }
    const next = await runInNode({ code: "return 'still here'" }, host);
    expect(next.ok && next.value).toBe("still here");
  }, 60_000);
});
