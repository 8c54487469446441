/**
 * The large catalog's servers (evals/catalog/: public MCP servers' `tools/list`, captured at
 * pinned versions by `scripts/capture-schemas.ts --catalog`), for suites that name them: the
 * runner serves them offline with the catalog host (lib/demo-servers/node/catalog-host.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Tool } from "@modelcontextprotocol/client";

/** Where the captured servers are kept. */
export const CATALOG_DIR = path.join(import.meta.dirname, "..", "..", "..", "evals", "catalog");

/** One captured server: its tools, and the package and version they came from. */
export interface CapturedServer {
  name: string;
  tools: Tool[];
  source: { package: string; version: string };
}

/** Every captured server, by file name. */
export function loadCatalogServers(dir: string = CATALOG_DIR): CapturedServer[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => {
      const json = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { server: { package: string; version: string }; tools: Tool[] };
      return { name: file.replace(/\.json$/, ""), tools: json.tools, source: json.server };
    });
}
