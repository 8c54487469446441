import { describe, expect, it } from "vitest";
import { formatPairs, parseArgLines, parseEnvLines, parseHeaderLines } from "@/lib/mcp/form-text";

describe("server form text fields", () => {
  it("parses header lines, keeping colons inside values", () => {
    expect(parseHeaderLines("Authorization: Bearer a:b\n\n X-Team : core ")).toEqual({
      ok: true,
      value: { Authorization: "Bearer a:b", "X-Team": "core" },
    });
    expect(parseHeaderLines("Authorization Bearer x")).toEqual({ ok: false, message: 'Line 1 is not "Name: value".' });
    expect(parseHeaderLines(": no name")).toEqual({ ok: false, message: 'Line 1 is not "Name: value".' });
  });

  it("parses env lines and args, and formats pairs back", () => {
    const env = parseEnvLines("API_KEY=abc=def\nDEBUG=1");
    expect(env).toEqual({ ok: true, value: { API_KEY: "abc=def", DEBUG: "1" } });
    expect(parseArgLines(" -y \n\n@modelcontextprotocol/server-memory\n--dir /tmp/my files")).toEqual([
      "-y",
      "@modelcontextprotocol/server-memory",
      "--dir /tmp/my files",
    ]);
    expect(formatPairs({ A: "1", B: "x y" }, "=")).toBe("A=1\nB=x y");
    expect(formatPairs(undefined, ": ")).toBe("");
  });

  it("keeps a __proto__ key as an entry", () => {
    const parsed = parseEnvLines("__proto__=x");
    expect(parsed.ok && Object.keys(parsed.value)).toEqual(["__proto__"]);
  });
});
