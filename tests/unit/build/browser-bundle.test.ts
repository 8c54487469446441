/**
 * The libraries the page imports but never runs, and what stands in for them in its bundle
 * (next.config.js, lib/bundle/browser/; docs/speed.md, "The page's start"). That the
 * production bundle really leaves them out is checked on the built page (tests/e2e/page-start.spec.ts).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import nextConfig from "@/next.config.js";
import Ajv from "@/lib/bundle/browser/ajv";
import addFormats from "@/lib/bundle/browser/ajv-formats";
import * as gatewayStandIn from "@/lib/bundle/browser/ai-gateway";
import * as localesStandIn from "@/lib/bundle/browser/zod-locales";

describe("the page's bundle", () => {
  it("replaces four imports, in the browser only, each by a stand-in that exists", () => {
    const aliases = nextConfig.turbopack?.resolveAlias ?? {};
    expect(Object.keys(aliases).sort()).toEqual(["../locales/index.js", "@ai-sdk/gateway", "ajv", "ajv-formats"]);
    for (const [from, to] of Object.entries(aliases)) {
      // Only the browser condition: the server and Node keep the real library.
      expect(Object.keys(to as object), from).toEqual(["browser"]);
      const file = (to as { browser: string }).browser;
      expect(file, from).toMatch(/^\.\/lib\/bundle\/browser\/[a-z-]+\.ts$/);
      expect(existsSync(path.join(process.cwd(), file)), file).toBe(true);
    }
  });

  it("Ajv and its formats say they are not there if anything ever asks for them", () => {
    expect(() => new Ajv()).toThrow(/Ajv is not in the page's bundle: pass a jsonSchemaValidator/);
    expect(() => addFormats()).toThrow(/ajv-formats is not in the page's bundle/);
  });

  it("the AI Gateway stand-in answers the `ai` package's questions: no error is a gateway error, and no gateway can be made", () => {
    const { GatewayError, GatewayAuthenticationError, createGateway, gateway } = gatewayStandIn;
    for (const error of [new Error("x"), new GatewayError("y"), { name: "GatewayError" }, undefined]) {
      expect(GatewayError.isInstance(error)).toBe(false);
      expect(GatewayAuthenticationError.isInstance(error)).toBe(false);
    }
    expect(() => createGateway()).toThrow(/AI Gateway provider is not in the page's bundle/);
    expect(() => gateway()).toThrow(/AI Gateway provider is not in the page's bundle/);
    // Every name `ai` imports from the real package is there.
    expect(Object.keys(gatewayStandIn).sort()).toEqual(["GatewayAuthenticationError", "GatewayError", "createGateway", "gateway"]);
  });

  it("zod's locales shrink to English, zod's own default, and its messages stay English", () => {
    expect(Object.keys(localesStandIn)).toEqual(["en"]);
    z.config(localesStandIn.en());
    const result = z.object({ n: z.number() }).safeParse({ n: "one" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Invalid input: expected number, received string");
  });
});
