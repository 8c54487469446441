/**
 * Panels stay presentational (docs/page-state.md, "Page state"): they read stores and call the
 * page's actions (lib/playground/server-actions.ts), and no component reaches the server
 * registry or the connection manager: what they need of a live connection (a test call, an MCP
 * App, a card's resources and prompts, its stderr) the page's stores do for them. Only hooks and
 * the slots that place the panels reach for the page's state itself.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

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
    const holding = files.filter(({ text }) => /\bServerRegistry\b|\.registry\b/.test(text));
    expect(holding.map(({ file }) => file)).toEqual([]);
  });

  it("never hold the connection manager or a live connection", () => {
    expect(files.length).toBeGreaterThan(50);
    const holding = files
      .filter(({ text }) => /\bConnectionManager\b|\.manager\b|\bmanager\.|\bMcpConnection\b|\.connection\(/.test(text))
      .map(({ file }) => file);
    expect(holding).toEqual([]);
  });

  it("reach the page's state only through a hook or the slots that place the panels", () => {
    // A view deep in the tree names what it uses of the page (useSkills, useAppHost, useMcp…),
    // so what it depends on is visible, and the page's shape can change under one hook.
    const allowed = /^components\/(?:hooks\/|playground\/(?:slots|Playground|page-context)\.tsx$)/;
    const reaching = files.filter(({ file, text }) => !allowed.test(file) && /\busePage\(/.test(text)).map(({ file }) => file);
    expect(reaching).toEqual([]);
  });

  it("import lib/mcp's client modules for their types only", () => {
    const client = /^import (?!type )[^;]*from "@\/lib\/mcp\/(?:connection|connection-manager|live-connection|registry|sdk|sdk-client)";/m;
    expect(files.filter(({ text }) => client.test(text)).map(({ file }) => file)).toEqual([]);
  });
});
