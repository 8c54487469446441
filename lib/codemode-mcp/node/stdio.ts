/** Serves the code-mode MCP server on this process's stdin and stdout (one client). */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createCodeModeMcpServer } from "../mcp-server";
import type { CodeModeService } from "../service";

/** Connects; resolves once the client has closed the connection. */
export async function serveStdio(service: CodeModeService): Promise<void> {
  const server = createCodeModeMcpServer(service);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  await closed;
}
