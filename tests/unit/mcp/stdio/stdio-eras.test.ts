/**
 * Local (stdio) servers of both eras from a Node host (docs/mcp-client.md, "Protocol eras"):
 * the era is asked on the connection itself, so a command runs once per connect; a strict
 * 2026-07-28 server connects as one, the reference servers as 2025 ones; a server that exits
 * when asked anything before `initialize` is started once more without asking, and remembered.
 */
import { describe, expect, it } from "vitest";
import { loggedStdio, stdioFixture } from "../../../fixtures/mcp/logged-stdio";
import { connectStdio } from "@/lib/mcp/stdio/node/stdio-connection";
import { MEMORY_BIN } from "../../codemode-mcp/fixtures";

describe("stdio servers of both eras", () => {
  it("a strict 2026-07-28 server connects as one, started once, and its tools answer", async () => {
    const server = loggedStdio("modern", [stdioFixture("modern-stdio.mjs")]);
    const connection = await connectStdio(server);
    try {
      expect(connection.protocolVersion).toBe("2026-07-28");
      expect((await connection.listTools()).map((t) => t.name)).toEqual(["echo"]);
      expect((await connection.callTool("echo", { message: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
      expect(server.spawns()).toBe(1);
    } finally {
      await connection.close();
    }
  });

  it("the reference memory server is a 2025 one, found on the same connection", async () => {
    const connection = await connectStdio(loggedStdio("memory", [MEMORY_BIN]));
    try {
      expect(connection.protocolVersion).toBe("2025-11-25");
      expect((await connection.listTools()).map((t) => t.name)).toContain("read_graph");
    } finally {
      await connection.close();
    }
  });

  it("a server that exits on the question is started once more without it, and the next connect does not ask", async () => {
    const server = loggedStdio("fragile", [stdioFixture("exits-on-probe.mjs")]);
    const first = await connectStdio(server);
    expect(first.protocolVersion).toBe("2025-11-25");
    expect((await first.callTool("ping", {})).content).toEqual([{ type: "text", text: "pong" }]);
    await first.close();
    expect(server.spawns()).toBe(2);
    const second = await connectStdio(server);
    await second.close();
    expect(server.spawns()).toBe(3);
  });

  it("a server forced to 2025-11-25 (its protocolEra) that only speaks 2026-07-28 fails saying so", async () => {
    const server = loggedStdio("forced", [stdioFixture("modern-stdio.mjs")], { protocolEra: "legacy" });
    const error = (await connectStdio(server).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/forced: could not start/);
    expect(error.message).toMatch(/2026-07-28|protocol version/i);
    expect(server.spawns()).toBe(1);
  });
});
