/**
 * `Mcp-Param-*` headers (lib/mcp/param-headers.ts, SEP-2243): which arguments a schema marks,
 * and how their values travel as header values.
 */
import { describe, expect, it } from "vitest";
import { isParamHeader, paramHeaders } from "@/lib/mcp/param-headers";

const schema = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    tenant: { type: "object", properties: { id: { type: "integer", "x-mcp-header": "Tenant-Id" } } },
    dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
    list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
    ratio: { type: "number", "x-mcp-header": "Ratio" },
    bad: { type: "string", "x-mcp-header": "Not a token" },
    plain: { type: "string" },
  },
};

const b64 = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

describe("paramHeaders", () => {
  it("mirrors marked string, integer and boolean arguments reached through properties, and nothing else", () => {
    expect(paramHeaders(schema, { region: "eu-west", tenant: { id: 42 }, dry: false, list: ["a"], ratio: 0.5, bad: "x", plain: "y" })).toEqual({
      "Mcp-Param-Region": "eu-west",
      "Mcp-Param-Tenant-Id": "42",
      "Mcp-Param-Dry-Run": "false",
    });
  });

  it("omits a value that is absent, null or of another kind than the schema says", () => {
    expect(paramHeaders(schema, { region: null, tenant: { id: 1.5 }, dry: "yes" })).toEqual({});
    expect(paramHeaders(schema, { tenant: { id: Number.MAX_SAFE_INTEGER + 2 } })).toEqual({});
    expect(paramHeaders(schema, undefined)).toEqual({});
    expect(paramHeaders({ type: "object" }, { region: "eu" })).toEqual({});
  });

  it("sends a plain printable ASCII value as it is, and anything else in Base64 of its UTF-8", () => {
    const header = (region: string) => paramHeaders(schema, { region })["Mcp-Param-Region"];
    expect(header("us-east-1")).toBe("us-east-1");
    expect(header("with\ttab")).toBe("with\ttab");
    expect(header("Zürich")).toBe(b64("Zürich"));
    expect(header(" padded")).toBe(b64(" padded"));
    expect(header("line\nbreak")).toBe(b64("line\nbreak"));
    expect(header("")).toBe(b64(""));
    expect(header("=?base64?SGk=?=")).toBe(b64("=?base64?SGk=?="));
    expect(header("東京")).toBe(b64("東京"));
  });

  it("knows its headers by name, in any case", () => {
    expect(isParamHeader("Mcp-Param-Region")).toBe(true);
    expect(isParamHeader("mcp-param-region")).toBe(true);
    expect(isParamHeader("Mcp-Name")).toBe(false);
  });
});
