import { describe, expect, it } from "vitest";
import { buildShareState } from "@/lib/share/build";
import { encodeShareState } from "@/lib/share/encode";
import { shareStateToFile } from "@/lib/share/file-format";
import { shareServersToMcpJson } from "@/lib/share/mcp-json";
import { prepareShare } from "@/lib/share/prepare";
import type { ShareState } from "@/lib/share/schema";
import { inflateLink, MARK, plantedInputs } from "./helpers";

describe("secrets planted in every field", () => {
  it("never reach the link, its decompressed JSON, the file or the mcp.json", async () => {
    const { state } = buildShareState(plantedInputs());
    const encoded = await encodeShareState(state);
    const json = await inflateLink(encoded);
    // The scan must be able to fail: the plain structure did survive.
    expect(json).toContain("get_quote");
    expect(json).toContain("mcp.example.com");
    expect(encoded).not.toContain(MARK);
    expect(json).not.toContain(MARK);
    expect(shareStateToFile(state)).not.toContain(MARK);
    expect(shareServersToMcpJson(state.servers).text).not.toContain(MARK);
    expect(JSON.stringify(state)).not.toContain(MARK);
  });

  it("never reach a prepared share in any of its outputs", async () => {
    const prepared = await prepareShare(plantedInputs(), { baseUrl: "https://app.example.com" });
    expect(JSON.stringify(prepared)).not.toContain(MARK);
    expect(await inflateLink(prepared.encoded)).not.toContain(MARK);
  });

  it("are dropped by encode even when the state object itself carries extra fields", async () => {
    const { state } = buildShareState(plantedInputs());
    const tampered = {
      ...state,
      apiKey: `${MARK}-top`,
      servers: state.servers.map((s) => ({ ...s, headers: { Authorization: `${MARK}-h` }, env: { K: `${MARK}-e` } })),
      model: { provider: "openai", id: "gpt-5", apiKey: `${MARK}-model` },
    } as ShareState;
    const json = await inflateLink(await encodeShareState(tampered));
    expect(json).toContain("gpt-5");
    expect(json).not.toContain(MARK);
    expect(shareStateToFile(tampered)).not.toContain(MARK);
  });

  it("leave a trace the recipient can act on: which secrets to ask for", () => {
    const { state, omitted } = buildShareState(plantedInputs());
    const [remote, stdio] = state.servers;
    expect(remote).toMatchObject({ url: "https://mcp.example.com/mcp?region=eu", hadSecrets: true });
    expect(remote?.secrets).toEqual([
      { where: "header", name: "Authorization" },
      { where: "header", name: "X-Tenant" },
      { where: "url-credentials", name: "userinfo" },
      { where: "query", name: "api_key" },
    ]);
    expect(stdio?.args).toEqual([
      "-y",
      "@example/server",
      "--token",
      "[redacted]",
      "--api-key=[redacted]",
      "API_TOKEN=[redacted]",
      "[redacted]",
      "https://x.example.com/",
    ]);
    expect(stdio?.secrets.map((s) => `${s.where}:${s.name}`)).toEqual([
      "env:GITHUB_TOKEN",
      "env:PATH",
      "arg:--token",
      "arg:--api-key",
      "arg:API_TOKEN",
      "query:token",
    ]);
    expect(omitted).toEqual(["shipping: secrets (headers, env values, credentials)", "memory: secrets (headers, env values, credentials)"]);
  });
});
