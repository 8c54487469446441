/** The demo servers' tools as a client lists them (zod → JSON Schema by the SDK), in process. */
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type { Tool } from "@modelcontextprotocol/client";
import { DEMO_SERVERS } from "@/lib/demo-servers";

/** Every demo tool by "server/tool". */
export async function listDemoTools(): Promise<Map<string, Tool>> {
  const out = new Map<string, Tool>();
  for (const demo of DEMO_SERVERS) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = demo.create();
    await server.connect(serverSide);
    const client = new Client({ name: "forms-tests", version: "1.0.0" });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    for (const tool of tools) out.set(`${demo.name}/${tool.name}`, tool);
    await client.close();
    await server.close();
  }
  return out;
}
