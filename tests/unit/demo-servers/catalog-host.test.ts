/** The catalog host: the large catalog's servers on loopback, listed as captured and answering offline, through the app's own MCP client and the headless runner. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tool } from "@modelcontextprotocol/client";
import { connectToServer } from "@/lib/mcp/connection";
import { startCatalogHost } from "@/lib/demo-servers/node/catalog-host";
import { compileSchema } from "@/lib/mcp/validate";
import { openToolWorld, type OpenedToolWorld } from "@/lib/model/node/headless-agent";
import { largeCatalog } from "../../fixtures/schemas/large-catalog";
import { valueOf } from "../timeline/helpers";

const servers = largeCatalog().map((s) => ({ name: s.name, tools: s.tools as Tool[] }));
let host: Awaited<ReturnType<typeof startCatalogHost>>;
beforeAll(async () => {
  host = await startCatalogHost(servers);
});
afterAll(() => host.close());

describe("the catalog host", () => {
  it("lists a server's tools exactly as captured, and answers a call with structured content valid for its output schema", async () => {
    const withOutput = servers.find((s) => s.tools.some((t) => t.outputSchema))!;
    const tool = withOutput.tools.find((t) => t.outputSchema)!;
    const config = {
      id: withOutput.name,
      name: withOutput.name,
      transport: "streamable-http" as const,
      url: host.urlFor(withOutput.name),
      headers: {},
      enabled: true,
    };
    const connection = await connectToServer(config, { baseUrl: host.url, proxyUrl: "/api/mcp/proxy" });
    try {
      expect(await connection.listTools()).toEqual(withOutput.tools);
      const result = await connection.callTool(tool.name, {});
      const compiled = compileSchema(tool.outputSchema);
      if (!compiled.ok) throw new Error(compiled.message);
      expect(compiled.validate(result.structuredContent, "result")).toEqual([]);
    } finally {
      await connection.close();
    }
  });

  it("the headless runner connects all 23 servers at once and a program calls across three of them", async () => {
    const configs = servers.map((s) => ({
      id: s.name,
      name: s.name,
      transport: "streamable-http" as const,
      url: host.urlFor(s.name),
      headers: {},
      enabled: true,
    }));
    const world: OpenedToolWorld = await openToolWorld(configs, { baseUrl: host.url });
    try {
      expect(world.catalog.servers).toHaveLength(23);
      const result = await world.handlers.runCode(
        `const [a, b, c] = await Promise.all([github.search_repositories({ query: "mcp" }), slack.slack_list_channels({}), notion.API_get_self({})]);
         return [typeof a, typeof b, typeof c];`,
        "t1",
      );
      expect(valueOf(result)).toEqual(["object", "object", "object"]);
      expect(world.calls.map((c) => c.server).sort()).toEqual(["github", "notion", "slack"]);
    } finally {
      await world.close();
    }
  });
});
