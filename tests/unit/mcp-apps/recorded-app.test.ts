/** An MCP App kept with a recorded run (lib/mcp-apps/recorded-app.ts): what is kept, and reading it back from a file or link strictly. */
import { describe, expect, it } from "vitest";
import type { Tool } from "@modelcontextprotocol/client";
import { MAX_APP_HTML } from "@/lib/mcp-apps/app-resource";
import { appKey, readRecordedApp, recordApp } from "@/lib/mcp-apps/recorded-app";
import { exportRunFile, parseRunFile } from "@/lib/timeline/run-file";
import { RunRecorder } from "@/lib/timeline/recorder";

const tool: Tool = {
  name: "get_quote",
  description: "Quotes.",
  inputSchema: { type: "object" },
  _meta: { ui: { resourceUri: "ui://s/q.html" } },
  annotations: { readOnlyHint: true },
};
const resource = { uri: "ui://s/q.html", html: "<p>app</p>", csp: { connect: ["https://api.example.com"], resource: [], frame: [] } };

describe("recorded apps", () => {
  it("keeps the tool as the app sees it and the resource, and reads them back", () => {
    const kept = recordApp(tool, resource);
    expect(kept).toEqual({ tool: { name: "get_quote", description: "Quotes.", inputSchema: { type: "object" }, _meta: tool._meta }, resource });
    expect(readRecordedApp(JSON.parse(JSON.stringify(kept)))).toEqual(kept);
  });

  it("a file's or link's app is read strictly: its shape, its URI matching the tool, the HTML cap, the policy checked again", () => {
    const kept = recordApp(tool, resource);
    for (const bad of [null, 3, {}, { tool: kept.tool }, { tool: { name: 1 }, resource }, { tool: kept.tool, resource: { ...resource, html: 5 } }])
      expect(readRecordedApp(bad), JSON.stringify(bad)).toBeUndefined();
    expect(readRecordedApp({ tool: kept.tool, resource: { ...resource, uri: "ui://other" } })).toBeUndefined();
    expect(readRecordedApp({ tool: kept.tool, resource: { ...resource, html: "x".repeat(MAX_APP_HTML + 1) } })).toBeUndefined();
    const forged = readRecordedApp(
      {
        tool: kept.tool,
        resource: { ...resource, csp: { connect: ["*", "http://127.0.0.1:3000", "https://ok.example"], resource: "nope", frame: ["'unsafe-eval'"] } },
      },
      "http://127.0.0.1:3000",
    );
    expect(forged?.resource.csp).toEqual({ connect: ["https://ok.example"], resource: [], frame: [] });
  });

  it("travels with its run through a run file", () => {
    const recorder = new RunRecorder({ id: "r1", code: "return 1" });
    const record = {
      ...recorder.finish({ ok: true, value: 1, logs: [], stats: { wallMs: 1, hostCalls: 0, peakInFlight: 0 } }),
      apps: { [appKey("s", "get_quote")]: recordApp(tool, resource) },
    };
    const parsed = parseRunFile(exportRunFile(record));
    expect(parsed.ok && readRecordedApp(parsed.record.apps?.[appKey("s", "get_quote")])).toEqual(recordApp(tool, resource));
  });
});
