import { describe, expect, it } from "vitest";
import { formatPairs, parseArgLines, parseCommandLine, parseEnvLines, parseHeaderLines } from "@/lib/mcp/form-text";

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

describe("parseCommandLine", () => {
  it("splits a pasted line as a shell splits words, expanding nothing", () => {
    expect(parseCommandLine("npx -y @modelcontextprotocol/server-memory")).toEqual({
      ok: true,
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-memory"],
    });
    expect(parseCommandLine(`node "/my servers/s.js" --name 'a b' /x\\ y $HOME *.py`)).toEqual({
      ok: true,
      command: "node",
      args: ["/my servers/s.js", "--name", "a b", "/x y", "$HOME", "*.py"],
    });
    expect(parseCommandLine("uvx mcp-server-fetch # a comment")).toEqual({ ok: true, command: "uvx", args: ["mcp-server-fetch"] });
    expect(parseCommandLine("  server-everything  ")).toEqual({ ok: true, command: "server-everything", args: [] });
  });

  it("keeps Windows paths, quoted or not", () => {
    expect(parseCommandLine(String.raw`C:\tools\srv.exe --x`)).toEqual({ ok: true, command: String.raw`C:\tools\srv.exe`, args: ["--x"] });
    expect(parseCommandLine(String.raw`"C:\Program Files\nodejs\node.exe" server.js`)).toEqual({
      ok: true,
      command: String.raw`C:\Program Files\nodejs\node.exe`,
      args: ["server.js"],
    });
  });

  it("refuses shell syntax and an empty line, saying why", () => {
    expect(parseCommandLine("cat x | srv")).toEqual({
      ok: false,
      message: '"|" is shell syntax; a server is one command with its arguments, run without a shell',
    });
    expect(parseCommandLine("a && b")).toEqual({ ok: false, message: '"&&" is shell syntax; a server is one command with its arguments, run without a shell' });
    expect(parseCommandLine("srv > log")).toEqual({
      ok: false,
      message: '">" is shell syntax; a server is one command with its arguments, run without a shell',
    });
    expect(parseCommandLine("   ")).toEqual({ ok: false, message: "A local (stdio) server needs a command to run" });
  });
});
