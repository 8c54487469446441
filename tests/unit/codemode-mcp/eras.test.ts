/**
 * The code-mode MCP server speaks both protocol eras on one endpoint (docs/benchmarks.md, "The
 * code-mode MCP server"): a 2026-07-28 client (the v2 SDK's, negotiating) gets stateless
 * requests, no session, and runs programs; a 2025-11-25 client (the v1 SDK's) on the same
 * endpoint keeps its session. Over stdio the real command serves a 2026-07-28 client too.
 */
import { describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ModernRuns } from "@/lib/codemode-mcp/modern-runs";
import { BIN, codeModeHarness, execute, HARNESS_TOKEN, PARALLEL_PROGRAM, postModern, writeConfig } from "./fixtures";

const harness = codeModeHarness();

/** A 2026-07-28 tools/call as a client puts it on the wire, with the answers and state of an earlier round. */
function modernCall(code: string, extra: { clientName?: string; inputResponses?: unknown; requestState?: string; elicitation?: boolean } = {}) {
  return {
    method: "tools/call",
    params: {
      name: "execute_code",
      arguments: { code },
      ...(extra.inputResponses ? { inputResponses: extra.inputResponses } : {}),
      ...(extra.requestState ? { requestState: extra.requestState } : {}),
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: extra.clientName ?? "raw-agent", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": extra.elicitation === false ? {} : { elicitation: { form: {} } },
      },
    },
  };
}

function modernClient(name: string): Client {
  return new Client({ name, version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
}

const ORDER = `try { return await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { return "error: " + e.message; }`;

describe("the code-mode server's protocol eras", () => {
  it("over HTTP: a 2026-07-28 client runs programs with no session; a 2025 client on the same endpoint keeps one", async () => {
    const { url, endpoint } = await harness.serve({ destructive: { store: "ask" } });
    const seen: Array<{ method: string; session: string | null }> = [];
    const client = modernClient("modern-agent");
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${HARNESS_TOKEN}` } },
        fetch: async (input, init) => {
          const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }) : {};
          const response = await fetch(input, init);
          seen.push({ method: body.method ?? "", session: response.headers.get("mcp-session-id") });
          return response;
        },
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["execute_code", "search_tools"]);
      const result = await client.callTool({ name: "execute_code", arguments: { code: PARALLEL_PROGRAM, data: { who: "Grace" } } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ value: { echo: "hello Grace" }, calls: { total: 3, failed: 0 } });
      // A destructive call under "ask" from a client that cannot answer forms: refused, saying why.
      const order = await client.callTool({ name: "execute_code", arguments: { code: ORDER } });
      expect(String((order.structuredContent as { value?: unknown } | undefined)?.value)).toContain("no elicitation support");
      expect(seen.map((s) => s.method)).toContain("server/discover");
      expect(seen.map((s) => s.method)).not.toContain("initialize");
      expect(seen.every((s) => s.session === null)).toBe(true);
      expect(endpoint.sessionCount).toBe(0);

      const old = await harness.connect(url, "legacy-agent");
      expect(old.getServerVersion()?.name).toBe("code-mode-playground");
      expect((await execute(old, "return 1 + 1;")).structuredContent).toMatchObject({ value: 2 });
      expect(endpoint.sessionCount).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("approvals through multi-round-trip requests: the program waits between the requests; yes sends the call, no and an untouched form deny it", async () => {
    const { url } = await harness.serve({ destructive: { store: "ask" } });
    let answer: "accept" | "decline" | "defaults" = "accept";
    const asked: string[] = [];
    const client = modernClient("asking-agent");
    client.registerCapabilities({ elicitation: { form: {} } });
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params.message);
      if (answer === "decline") return { action: "decline" };
      const content: Record<string, boolean> = answer === "accept" ? { approve: true } : {};
      return { action: "accept", content };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${HARNESS_TOKEN}` } } }));
    try {
      const program = `const before = await lab.echo({ message: "first" }); let order; try { order = await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { order = "error: " + e.message; } return { before: before.message, order };`;
      const yes = await client.callTool({ name: "execute_code", arguments: { code: program } });
      expect(asked.at(-1)).toContain("store.place_order");
      // The call reached the store, which knows no such cart; the program ran once, through both requests.
      expect(yes.structuredContent).toMatchObject({ value: { before: "first" }, calls: { total: 2, failed: 1 } });
      expect(JSON.stringify(yes.structuredContent)).toContain("cart-nope");
      answer = "decline";
      const no = await client.callTool({ name: "execute_code", arguments: { code: program } });
      expect(no.structuredContent).toMatchObject({ value: { order: "error: denied by the person" } });
      answer = "defaults";
      const untouched = await client.callTool({ name: "execute_code", arguments: { code: program } });
      expect(untouched.structuredContent).toMatchObject({ value: { order: "error: denied by the person" } });
      expect(asked).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  it("a forged, tampered, replayed or moved requestState is refused, and nothing reaches the store", async () => {
    const { url } = await harness.serve({ destructive: { store: "ask" } });
    const program = `try { return await store.place_order({ cartId: "cart-nope", deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" }); } catch (e) { return "error: " + e.message; }`;
    const first = await postModern(url, modernCall(program), "execute_code");
    expect(first.json.result?.resultType).toBe("input_required");
    const state = String(first.json.result?.requestState);
    const inputRequests = first.json.result?.inputRequests as Record<string, { params: { message: string } }>;
    const [key] = Object.keys(inputRequests);
    expect(inputRequests[key ?? ""]?.params.message).toContain("store.place_order");
    const yes = { [key ?? ""]: { action: "accept", content: { approve: true } } };

    const forged = await postModern(url, modernCall(program, { requestState: "v1.eyJwIjp7InJ1biI6IngiLCJuIjoxfX0.AAAA", inputResponses: yes }), "execute_code");
    expect(forged.json.error?.code).toBe(-32602);
    const tampered = await postModern(url, modernCall(program, { requestState: `${state.slice(0, -2)}xx`, inputResponses: yes }), "execute_code");
    expect(tampered.json.error?.code).toBe(-32602);
    // Bound to the client's name: another client holding it cannot use it.
    const moved = await postModern(url, modernCall(program, { clientName: "someone-else", requestState: state, inputResponses: yes }), "execute_code");
    expect(moved.json.error?.code).toBe(-32602);

    // The run went on only with the person's own answer: the store was never called.
    const declined = await postModern(
      url,
      modernCall(program, { requestState: state, inputResponses: { [key ?? ""]: { action: "decline" } } }),
      "execute_code",
    );
    expect(JSON.stringify(declined.json.result?.structuredContent)).toContain("denied by the person");
    // The same state again (a replay, now with a yes): nothing waits for it.
    const replayed = await postModern(url, modernCall(program, { requestState: state, inputResponses: yes }), "execute_code");
    expect(replayed.json.result?.isError).toBe(true);
    expect(JSON.stringify(replayed.json.result?.content)).toContain("already answered");
  });

  it("an expired requestState is refused (-32602, saying it expired)", async () => {
    const { url } = await harness.serve({ destructive: { store: "ask" } }, { runs: () => new ModernRuns({ stateTtlSeconds: 1 }) });
    const first = await postModern(url, modernCall(ORDER), "execute_code");
    expect(first.json.result?.resultType).toBe("input_required");
    const [key] = Object.keys(first.json.result?.inputRequests as Record<string, unknown>);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const late = await postModern(
      url,
      modernCall(ORDER, {
        requestState: String(first.json.result?.requestState),
        inputResponses: { [key ?? ""]: { action: "accept", content: { approve: true } } },
      }),
      "execute_code",
    );
    expect(late.json.error?.code).toBe(-32602);
    expect(late.json.error?.message).toMatch(/expired/i);
  });

  it("over HTTP: a request without the token is refused in either era", async () => {
    const { url } = await harness.serve({});
    const client = modernClient("no-token");
    const error = await client.connect(new StreamableHTTPClientTransport(new URL(url))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/401|bearer token|Unauthorized/i);
    await client.close().catch(() => undefined);
  });

  it("over stdio: the real command serves a 2026-07-28 client (pinned, so the command starts once)", async () => {
    const config = writeConfig((name) => harness.demo().urlFor(name));
    const client = new Client({ name: "stdio-modern", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--config", config], stderr: "pipe" }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const result = await client.callTool({ name: "execute_code", arguments: { code: PARALLEL_PROGRAM, data: { who: "Lin" } } });
      expect(result.structuredContent).toMatchObject({ value: { names: ["Lin"], echo: "hello Lin" } });
    } finally {
      await client.close();
    }
  });
});
