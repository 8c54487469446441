/**
 * Serves the code-mode MCP server on this process's stdin and stdout (one client), in the era the
 * client opens with: the v2 SDK's `serveStdio` pins a 2026-07-28 or a 2025-11-25 server for the
 * connection. The connection ends when the client closes it, closes our stdin, or stops reading
 * our stdout: an agent that quits without a goodbye must not leave this process, and the servers
 * it started, behind.
 */
import { serveStdio as serveSdkStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { createCodeModeMcpServer } from "../mcp-server";
import type { CodeModeService } from "../service";

/** Connects; resolves once the connection has ended, whichever side ended it. */
export async function serveStdio(service: CodeModeService, io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<void> {
  const stdin = (io.stdin ?? process.stdin) as NodeJS.ReadStream & typeof process.stdin;
  const stdout = (io.stdout ?? process.stdout) as typeof process.stdout;
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  const transport = new StdioServerTransport(stdin, stdout);
  const handle = serveSdkStdio(() => createCodeModeMcpServer(service), { transport });
  const hangUp = () => void handle.close().finally(ended);
  stdin.once("end", hangUp);
  stdin.once("close", hangUp);
  // EPIPE: the client is gone; nothing written from here on could reach it.
  stdout.once("error", hangUp);
  try {
    await closed;
  } finally {
    stdin.off("end", hangUp);
    stdin.off("close", hangUp);
    stdout.off("error", hangUp);
  }
}
