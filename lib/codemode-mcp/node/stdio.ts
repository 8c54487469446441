/**
 * Serves the code-mode MCP server on this process's stdin and stdout (one client). The
 * connection ends when the client closes it, closes our stdin (the SDK's transport does not
 * notice that on its own), or stops reading our stdout: an agent that quits without a goodbye
 * must not leave this process, and the servers it started, behind.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createCodeModeMcpServer } from "../mcp-server";
import type { CodeModeService } from "../service";

/** Connects; resolves once the connection has ended, whichever side ended it. */
export async function serveStdio(service: CodeModeService, io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<void> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const server = createCodeModeMcpServer(service);
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  server.onclose = () => ended();
  const hangUp = () => void server.close().finally(ended);
  stdin.once("end", hangUp);
  stdin.once("close", hangUp);
  // EPIPE: the client is gone; nothing written from here on could reach it.
  stdout.once("error", hangUp);
  await server.connect(new StdioServerTransport(stdin as NodeJS.ReadStream & typeof process.stdin, stdout as typeof process.stdout));
  try {
    await closed;
  } finally {
    stdin.off("end", hangUp);
    stdin.off("close", hangUp);
    stdout.off("error", hangUp);
  }
}
