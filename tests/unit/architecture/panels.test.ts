/**
 * Panels stay presentational (docs/page-state.md, "Page state"): they read stores and call the
 * page's actions (lib/playground/server-actions.ts), and no component reaches the server
 * registry at all. The components that still hold the connection manager are listed with what
 * they use it for, so the list can only shrink: a new one fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

/** Components that still reach live connections through the manager, and why. */
const HOLD_THE_MANAGER: Record<string, string> = {
  "components/hooks/use-mcp.ts": "hands the manager to the two below",
  "components/playground/page-context.tsx": "builds the inert page state of the server render",
  "components/servers/ServerList.tsx": "a card's live connection, for its resources and prompts (ServerExtras)",
  "components/tools/ToolDetails.tsx": "the Tools view's test calls",
  "components/tools/TestCallForm.tsx": "the Tools view's test calls and the MCP App one shows",
  "components/hooks/use-test-call.ts": "the Tools view's test calls",
  "components/apps/CallApp.tsx": "an MCP App's calls on the timeline",
};

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(relative);
    return /\.tsx?$/.test(entry.name) ? [relative.split(path.sep).join("/")] : [];
  });
}

describe("components", () => {
  const files = sources("components").map((file) => ({ file, text: readFileSync(path.join(root, file), "utf8") }));

  it("never hold the server registry: they call the page's server actions", () => {
    const holding = files.filter(({ text }) => /\bServerRegistry\b|\.registry\b/.test(text.replace(/new ServerActions\(playground\.servers\.registry/, "")));
    expect(holding.map(({ file }) => file)).toEqual([]);
  });

  it("hold the connection manager only where the list above says why", () => {
    const holding = files.filter(({ text }) => /\bConnectionManager\b|\.manager\b|\bmanager\./.test(text)).map(({ file }) => file);
    expect(holding.sort()).toEqual(Object.keys(HOLD_THE_MANAGER).sort());
  });
});
