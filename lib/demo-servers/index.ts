/**
 * The built-in demo servers: catalog data plus a factory for each. Server-side only (it
 * imports the SDK's server); client code should import catalog.ts instead.
 */
import type { McpServer } from "@modelcontextprotocol/server";
import { DEMO_SERVERS_INFO, isDemoServerName } from "./catalog";
import type { DemoServerInfo, DemoServerName } from "./catalog";
import { createLabServer } from "./lab";
import { createNewsServer } from "./news";
import { createShippingServer } from "./shipping";
import { createStoreServer } from "./store";

export { DEMO_SERVER_NAMES, DEMO_SERVERS_INFO, demoServerPath, isDemoServerName } from "./catalog";
export type { DemoServerInfo, DemoServerName } from "./catalog";
export { createLabServer, createNewsServer, createShippingServer, createStoreServer };

const FACTORIES: Record<DemoServerName, () => McpServer> = {
  shipping: createShippingServer,
  news: createNewsServer,
  store: createStoreServer,
  lab: createLabServer,
};

/** A demo server's catalog entry and factory. */
export interface DemoServer extends DemoServerInfo {
  create: () => McpServer;
}

/** Every demo server with its factory, in display order. */
export const DEMO_SERVERS: readonly DemoServer[] = DEMO_SERVERS_INFO.map((info) => ({ ...info, create: FACTORIES[info.name] }));

/** The demo server called `name`, or undefined. */
export function getDemoServer(name: string): DemoServer | undefined {
  return isDemoServerName(name) ? DEMO_SERVERS.find((s) => s.name === name) : undefined;
}
