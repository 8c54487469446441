/**
 * Two instances of the production app behind the repository's own nginx config
 * (deploy/nginx/code-mode-playground.conf), sharing a real Redis, as docs/deploying.md sets them
 * up: 2026-07-28 clients run 500 programs (5 clients × 100: plain ones, approvals asked and
 * answered, long ones as tasks) through round robin with no error and no mixed result; one
 * instance is killed and the clients go on with the other, the dead one's tasks ending as failed
 * with words; Redis stops and the endpoint answers 503, then heals by itself.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test } from "./fixtures";
import { startAppServer, type AppServer } from "../fixtures/app-server";
import { freePort } from "../fixtures/free-port";
import { startNginx, type Nginx } from "../fixtures/nginx";
import { startRedis, type RedisServer } from "../fixtures/redis";
import { connectToServer, type McpConnection } from "../../lib/mcp/connection";

const TOKEN = `instances-${"0123456789abcdef".repeat(3)}`;
const CLIENTS = 5;
const PROGRAMS = 100;

/** An mcp.json over the instance's own demo servers: the store's orders are asked, programs past 300 ms become tasks. */
function configFor(port: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cmp-instances-"));
  const file = path.join(dir, "mcp.json");
  const demo = (name: string) => ({ type: "http", url: `http://127.0.0.1:${port}/api/demo-mcp/${name}` });
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { lab: demo("lab"), store: demo("store") }, codeMode: { destructive: { store: "ask" }, taskAfterMs: 300 } }),
  );
  return file;
}

const ORDER = `let order; try { order = await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { order = "error: " + e.message; } return { who, order };`;
const PLAIN = `const echoed = await lab.echo({ message: who }); return { who, echo: echoed.message };`;
const LONG = `await lab.sleep({ ms: 500 }); return { who, slept: true };`;

/** A v2 SDK client through the proxy that answers approvals with `approve(message)` and notes which instance answered each request. */
async function sdkClient(url: string, name: string, landed: string[], approve: () => boolean): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  client.registerCapabilities({ elicitation: { form: {} } });
  client.setRequestHandler("elicitation/create", () => (approve() ? { action: "accept", content: { approve: true } } : { action: "decline" }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        landed.push(response.headers.get("x-upstream") ?? "");
        return response;
      },
    }),
  );
  return client;
}

/** The playground's own client (it takes tasks through ext-tasks) through the proxy. */
function tasksClient(url: string, name: string): Promise<McpConnection> {
  return connectToServer(
    { id: name, name, transport: "streamable-http", url, headers: { authorization: `Bearer ${TOKEN}` }, enabled: true },
    { baseUrl: "http://127.0.0.1", proxyUrl: "/api/mcp/proxy", via: "direct", clientInfo: { name, version: "1" } },
  );
}

/** One raw 2026-07-28 request through the proxy: status, the instance that answered, the JSON-RPC answer. */
async function raw(url: string, method: string, params: Record<string, unknown>, mcpName?: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(mcpName ? { "mcp-name": mcpName } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "raw-tasker", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
        },
      },
    }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  const data = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}");
  return {
    status: response.status,
    upstream: response.headers.get("x-upstream") ?? "",
    text,
    json: JSON.parse(data) as { result?: Record<string, unknown>; error?: { message: string } },
  };
}

test.describe("the code-mode server on two instances behind nginx", () => {
  test("500 programs through round robin, an instance killed, Redis stopped: no error, no mixed result, failed tasks with words, 503 then healed", async () => {
    test.setTimeout(240_000);
    let redis: RedisServer | undefined;
    let nginx: Nginx | undefined;
    const apps: AppServer[] = [];
    const closers: Array<() => Promise<unknown>> = [];
    try {
      redis = await startRedis();
      const ports: [number, number] = [await freePort(), await freePort()];
      const env = (port: number) => ({
        CMP_REDIS_URL: redis?.url,
        CMP_REDIS_PREFIX: "e2e-instances:",
        CMP_CODEMODE_TOKEN: TOKEN,
        CMP_CODEMODE_CONFIG: configFor(port),
        // Every client here comes from 127.0.0.1: the per-client limit would count them as one.
        CMP_CODEMODE_RATE_PER_MINUTE: "100000",
      });
      apps.push(...(await Promise.all(ports.map((port) => startAppServer({ port, env: env(port) })))));
      nginx = await startNginx(ports);
      const url = `${nginx.origin}/api/codemode/mcp`;

      // 1. 5 clients × 100 programs, at once: every result is the client's own.
      const landed: string[] = [];
      const failures: string[] = [];
      let approvals = 0;
      let tasks = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          let yes = false;
          const client = await sdkClient(url, `agent-${c}`, landed, () => yes);
          const tasker = await tasksClient(url, `tasker-${c}`);
          closers.push(
            () => client.close(),
            () => tasker.close(),
          );
          for (let p = 0; p < PROGRAMS; p++) {
            const who = `c${c}-p${p}`;
            try {
              if (p % 10 === 3) {
                yes = p % 20 === 3;
                const result = await client.callTool({ name: "execute_code", arguments: { code: ORDER, data: { who } } });
                const value = (result.structuredContent as { value?: { who?: string; order?: unknown } } | undefined)?.value;
                if (value?.who !== who) failures.push(`${who}: approval answered ${JSON.stringify(result)}`);
                // Yes reaches the store (which knows no such cart); no never does.
                else if (!JSON.stringify(value.order).includes(yes ? "cart-nope" : "denied by the person"))
                  failures.push(`${who}: ${JSON.stringify(value.order)}`);
                approvals++;
              } else if (p % 10 === 7) {
                const seen: string[] = [];
                const result = await tasker.callTool("execute_code", { code: LONG, data: { who } }, { onTask: (task) => seen.push(task.status) });
                const value = (result.structuredContent as { value?: { who?: string } } | undefined)?.value;
                if (value?.who !== who || !seen.includes("completed")) failures.push(`${who}: task answered ${JSON.stringify(result)} after ${seen.join(",")}`);
                tasks++;
              } else {
                const result = await client.callTool({ name: "execute_code", arguments: { code: PLAIN, data: { who } } });
                const value = (result.structuredContent as { value?: unknown } | undefined)?.value;
                if (JSON.stringify(value) !== JSON.stringify({ who, echo: who })) failures.push(`${who}: ${JSON.stringify(result)}`);
              }
            } catch (error) {
              failures.push(`${who}: ${error instanceof Error ? error.message : String(error)}`);
            }
          }
        }),
      );
      expect(failures).toEqual([]);
      expect(approvals).toBe(CLIENTS * 10);
      expect(tasks).toBe(CLIENTS * 10);
      // Round robin: each instance answered close to half of the SDK clients' requests.
      const perInstance = ports.map((port) => landed.filter((u) => u.endsWith(`:${port}`)).length);
      console.log(`500 programs: ${landed.length} SDK requests, ${perInstance.join(" / ")} per instance`);
      for (const count of perInstance) expect(count / landed.length).toBeGreaterThan(0.35);

      // 2. A long task on each instance (round robin sends the two requests to both; each keeps
      // one of its two sandbox threads), then the first instance killed.
      const started = [];
      for (let i = 0; i < 2; i++) {
        started.push(
          await raw(
            url,
            "tools/call",
            { name: "execute_code", arguments: { code: `for (let i = 0; i < 30; i++) await lab.sleep({ ms: 1000 }); return ${i};` } },
            "execute_code",
          ),
        );
      }
      const [dead, alive] = apps as [AppServer, AppServer];
      const onDead = started.filter((s) => s.upstream.endsWith(`:${dead.port}`)).map((s) => String(s.json.result?.taskId));
      const onAlive = started.filter((s) => s.upstream.endsWith(`:${alive.port}`)).map((s) => String(s.json.result?.taskId));
      expect(onDead.length).toBeGreaterThan(0);
      expect(onAlive.length).toBeGreaterThan(0);
      // Killed, and gone: a request in flight at that instant may get a 502 (it may have run, so
      // nginx does not send it again); the requests after it must not.
      const gone = new Promise((resolve) => dead.child.once("exit", resolve));
      dead.child.kill("SIGKILL");
      await gone;
      // The clients' next requests succeed on the other instance.
      const after = await sdkClient(url, "after-the-kill", [], () => true);
      closers.push(() => after.close());
      for (let i = 0; i < 10; i++) {
        const result = await after.callTool({ name: "execute_code", arguments: { code: PLAIN, data: { who: `after-${i}` } } });
        expect((result.structuredContent as { value?: unknown } | undefined)?.value, JSON.stringify(result)).toEqual({ who: `after-${i}`, echo: `after-${i}` });
      }
      // The dead instance's tasks end as failed, with words; the living one's still run.
      for (const taskId of onDead) {
        await expect
          .poll(async () => (await raw(url, "tasks/get", { taskId }, taskId)).json.result?.status, { timeout: 20_000, intervals: [500] })
          .toBe("failed");
        const read = await raw(url, "tasks/get", { taskId }, taskId);
        expect(String(read.json.result?.statusMessage)).toContain("stopped (it was restarted or crashed) before the program ended");
      }
      for (const taskId of onAlive) {
        expect((await raw(url, "tasks/get", { taskId }, taskId)).json.result?.status).toBe("working");
        expect((await raw(url, "tasks/cancel", { taskId }, taskId)).json.error).toBeUndefined();
      }

      // 3. Redis stopped: a clear 503 at once; started again: healed with no restart.
      await redis.kill();
      const refused = await raw(url, "tools/call", { name: "execute_code", arguments: { code: "return 1;" } }, "execute_code");
      expect(refused.status).toBe(503);
      expect(refused.text).toContain("The shared store (Redis) is unavailable right now");
      expect(refused.text).not.toContain(String(redis.port));
      await redis.restart();
      await expect
        .poll(
          async () =>
            (await raw(url, "tools/call", { name: "execute_code", arguments: { code: "return 41 + 1;" } }, "execute_code")).json.result?.structuredContent,
          {
            timeout: 20_000,
            intervals: [500],
          },
        )
        .toMatchObject({ value: 42 });
      expect(alive.stderr()).toContain("Redis is down");
    } finally {
      await Promise.all(closers.map((close) => close().catch(() => undefined)));
      await nginx?.stop();
      await Promise.all(apps.map((app) => app.stop()));
      await redis?.stop();
    }
  });
});
