/**
 * The shipping demo's MCP App over the wire: the page's connection declares the extension,
 * get_quote names its app, the app's resource reads as an app, and the catalog the model sees
 * has no resource reader for a server whose only resources are apps.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getUiCapability } from "@modelcontextprotocol/ext-apps/server";
import { connectToServer } from "@/lib/mcp/connection";
import type { McpConnection } from "@/lib/mcp/connection";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { withResourceReader } from "@/lib/mcp/resource-reader";
import { QUOTE_APP_URI } from "@/lib/demo-servers/quote-app";
import { appResourceFrom } from "@/lib/mcp-apps/app-resource";
import { toolUi } from "@/lib/mcp-apps/tool-ui";
import { createShippingServer } from "@/lib/demo-servers/shipping";
import { startMcpHttpServer } from "../../fixtures/mcp/test-servers";

let host: Awaited<ReturnType<typeof startDemoHost>>;
let connection: McpConnection;
beforeAll(async () => {
  host = await startDemoHost();
  connection = await connectToServer(
    { id: "s", name: "shipping", transport: "streamable-http", url: host.urlFor("shipping"), enabled: true },
    { baseUrl: host.urlFor("shipping"), proxyUrl: "/api/mcp/proxy", via: "direct", apps: true },
  );
});
afterAll(async () => {
  await connection.close();
  await host.close();
});

describe("the shipping demo's app", () => {
  it("get_quote names its app; the resource is an app with no network", async () => {
    const tools = await connection.listTools();
    const quote = tools.find((t) => t.name === "get_quote");
    expect(quote && toolUi(quote)).toEqual({ resourceUri: QUOTE_APP_URI, visibility: ["model", "app"] });
    expect(tools.filter((t) => toolUi(t)).map((t) => t.name)).toEqual(["get_quote"]);
    const app = appResourceFrom(await connection.readResource(QUOTE_APP_URI), QUOTE_APP_URI);
    expect(app).toMatchObject({ uri: QUOTE_APP_URI, csp: { connect: [], resource: [], frame: [] }, prefersBorder: false });
    expect("html" in app && app.html).toContain('request("ui/initialize"');
  });

  it("a server whose resources are all apps gets no $readResource; one with others does", async () => {
    const resources = await connection.listResources();
    expect(resources.map((r) => r.uri)).toEqual([QUOTE_APP_URI]);
    const tools = await connection.listTools();
    expect(withResourceReader(tools, connection.capabilities, resources)).toBe(tools);
    expect(withResourceReader(tools, connection.capabilities, [...resources, { uri: "file:///x" }]).at(-1)?.name).toBe("$readResource");
    expect(withResourceReader(tools, connection.capabilities).at(-1)?.name).toBe("$readResource");
  });

  it("the server sees the extension declared by a host that renders apps, and not by one that does not", async () => {
    const seen: unknown[] = [];
    const recorder = await startMcpHttpServer(
      () => {
        const server = createShippingServer();
        server.server.oninitialized = () => seen.push(getUiCapability(server.server.getClientCapabilities()) ?? "none");
        return server;
      },
      { stateful: true },
    );
    try {
      for (const apps of [true, false]) {
        const c = await connectToServer(
          { id: "r", name: "recorder", transport: "streamable-http", url: recorder.url, enabled: true },
          { baseUrl: recorder.url, proxyUrl: "/api/mcp/proxy", via: "direct", apps },
        );
        await c.close();
      }
    } finally {
      await recorder.close();
    }
    expect(seen).toEqual([{ mimeTypes: ["text/html;profile=mcp-app"] }, "none"]);
  });
});
