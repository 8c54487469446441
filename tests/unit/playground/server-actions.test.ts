/**
 * The server panels' actions over a real registry and real connections to the demo host on
 * loopback: what a person's clicks do, with no panel holding the registry or the manager.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { ServerRegistry } from "@/lib/mcp/registry";
import { PageServers } from "@/lib/playground/page-servers";
import { ServerActions, type SignInFlow } from "@/lib/playground/server-actions";
import { until } from "../timeline/helpers";

let demo: Awaited<ReturnType<typeof startDemoHost>>;
beforeAll(async () => {
  demo = await startDemoHost();
});
afterAll(() => demo.close());

/** A sign-in flow that notes what it was asked, in order. */
function recordingFlow(): SignInFlow & { said: string[] } {
  const said: string[] = [];
  return {
    said,
    signIn: (id) => void said.push(`signIn ${id}`),
    restart: (id) => void said.push(`restart ${id}`),
    settle: (id) => void said.push(`settle ${id}`),
    forgetAll: () => Promise.resolve(void said.push("forgetAll")),
  };
}

describe("ServerActions", () => {
  it("adds, edits, turns off, removes and restores servers through the registry, and the view follows", async () => {
    const servers = new PageServers({ registry: new ServerRegistry(), connectOptions: { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" } });
    const actions = new ServerActions(servers.registry, servers.manager);
    try {
      await servers.start();
      await until(() => servers.view.snapshot().connected.length === 4);
      const added = actions.add({ name: "echo-again", transport: "streamable-http", url: `${demo.url}/api/demo-mcp/lab`, enabled: true });
      expect(added.ok).toBe(true);
      await until(() => servers.view.snapshot().connected.length === 5);
      const refused = actions.add({ name: "", transport: "streamable-http", url: "not a url", enabled: true });
      expect(refused.ok).toBe(false);

      const lab = servers.view.snapshot().servers.find((s) => s.name === "lab")!;
      actions.setEnabled(lab.id, false);
      await until(() => servers.view.snapshot().connected.length === 4);
      actions.remove(lab.id);
      await until(() => !servers.view.snapshot().servers.some((s) => s.name === "lab"));
      expect(actions.restoreDemoServers().added).toEqual(["lab"]);
      await until(() => servers.view.snapshot().connected.length === 5);
      expect(actions.problems()).toEqual([]);
      expect(Object.keys(actions.exportConfig({ omitSecrets: true }).config.mcpServers)).toContain("echo-again");
    } finally {
      await servers.dispose();
    }
  });

  it("signs in inside the click, reconnects, then settles the flow; forgets secrets and tokens together; hands a log level to the connection or says why not", async () => {
    const servers = new PageServers({ registry: new ServerRegistry(), connectOptions: { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" } });
    const flow = recordingFlow();
    const actions = new ServerActions(servers.registry, servers.manager, flow);
    try {
      await servers.start();
      await until(() => servers.view.snapshot().connected.length === 4);
      const shipping = servers.view.snapshot().servers.find((s) => s.name === "shipping")!;
      actions.signIn(shipping.id, false);
      // The flow is told at once (the popup opens within the click); it settles once the reconnect ended.
      expect(flow.said).toEqual([`signIn ${shipping.id}`]);
      await until(() => flow.said.length === 2);
      expect(flow.said[1]).toBe(`settle ${shipping.id}`);
      actions.signIn(shipping.id, true);
      expect(flow.said[2]).toBe(`restart ${shipping.id}`);

      servers.registry.update(shipping.id, { headers: { authorization: "Bearer kept-in-this-browser" } });
      actions.forgetSecrets();
      await until(() => flow.said.includes("forgetAll"));
      expect(servers.registry.snapshot().find((s) => s.id === shipping.id)?.headers).toEqual({});

      // The connection's own answer passes through: lab takes no log level.
      await until(() => servers.view.snapshot().connected.length === 4);
      const lab = servers.view.snapshot().servers.find((s) => s.name === "lab")!;
      await expect(actions.setLogLevel(lab.id, "lab", "debug")).rejects.toThrow("does not declare the logging capability");
      actions.setEnabled(lab.id, false);
      await until(() => servers.view.snapshot().connected.length === 3);
      await expect(actions.setLogLevel(lab.id, "lab", "debug")).rejects.toThrow("lab is not connected.");
    } finally {
      await servers.dispose();
    }
  });

  it("has no sign-in without the browser's OAuth, and says so", () => {
    const registry = new ServerRegistry({ seedDemoServers: false });
    const servers = new PageServers({ registry, connectOptions: { baseUrl: demo.url, proxyUrl: "/api/mcp/proxy" } });
    const actions = new ServerActions(servers.registry, servers.manager);
    expect(actions.canSignIn).toBe(false);
    expect(new ServerActions(servers.registry, servers.manager, recordingFlow()).canSignIn).toBe(true);
    actions.signIn("nobody", false);
  });
});
