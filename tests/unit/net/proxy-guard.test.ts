import { describe, expect, it } from "vitest";
import { classifyAddress, ipInCidr, parseIp } from "@/lib/net/ip-ranges";
import { checkProxyTarget, checkResolvedAddress } from "@/lib/net/proxy-guard";

// [url, refused?, reason fragment]
const TABLE: Array<[string, boolean, string?]> = [
  ["https://mcp.example.com/mcp", false],
  ["http://93.184.216.34:8080/mcp", false],
  ["https://[2606:4700::1111]/mcp", false],
  ["ftp://example.com/x", true, "only http and https"],
  ["file:///etc/passwd", true, "only http and https"],
  ["javascript:alert(1)", true, "only http and https"],
  ["not a url", true, "not a valid absolute URL"],
  ["https://user:pw@example.com/", true, "credentials"],
  // cloud metadata, every spelling
  ["http://169.254.169.254/latest/meta-data/", true, "link-local"],
  ["http://169.254.169.254./latest/", true, "link-local"],
  ["http://0xa9fea9fe/", true, "link-local"],
  ["http://2852039166/", true, "link-local"],
  ["http://0251.0376.0251.0376/", true, "link-local"],
  ["http://169.254.43518/", true, "link-local"],
  ["http://[::ffff:169.254.169.254]/", true, "link-local"],
  ["http://[::ffff:a9fe:a9fe]/", true, "link-local"],
  ["http://[64:ff9b::a9fe:a9fe]/", true, "NAT64"],
  ["http://[2002:a9fe:a9fe::1]/", true, "6to4"],
  ["http://[fe80::1]/", true, "link-local"],
  ["http://[fd00:ec2::254]/", true, "AWS metadata"],
  ["http://100.100.100.200/", true, "Alibaba"],
  ["http://metadata.google.internal/computeMetadata/v1/", true, "metadata"],
  ["http://METADATA.GOOGLE.INTERNAL./", true, "metadata"],
  ["http://metadata/", true, "metadata"],
  ["http://0.0.0.0:3000/", true, "unspecified"],
  ["http://[::]/", true, "unspecified"],
  ["http://224.0.0.1/", true, "multicast"],
  // private: refused unless allow-listed
  ["http://127.0.0.1:3000/mcp", true, "allow-list"],
  ["http://127.1/", true, "loopback"],
  ["http://0x7f000001/", true, "loopback"],
  ["http://[::1]:3000/", true, "loopback"],
  ["http://[::ffff:127.0.0.1]/", true, "loopback"],
  ["http://localhost:3000/mcp", true, "loopback"],
  ["http://api.localhost/", true, "loopback"],
  ["http://10.1.2.3/", true, "RFC 1918"],
  ["http://172.20.0.5/", true, "RFC 1918"],
  ["http://192.168.1.10/", true, "RFC 1918"],
  ["http://100.64.1.1/", true, "carrier-grade"],
  ["http://[fd12:3456::1]/", true, "unique local"],
  // Security finding 10: both passed as public before.
  ["http://[64:ff9b:1::a9fe:a9fe]/", true, "local-use NAT64"],
  ["http://[64:ff9b:1:2::1]/", true, "local-use NAT64"],
  ["http://[::ffff:0:7f00:1]/", true, "loopback, embedded in a IPv4-translated"],
  ["http://[::ffff:0:169.254.169.254]/", true, "link-local"],
  ["http://[::ffff:0:a00:1]/", true, "RFC 1918"],
];

describe("checkProxyTarget", () => {
  it.each(TABLE)("%s → refused %s", (url, refused, fragment) => {
    const verdict = checkProxyTarget(url);
    expect(verdict.ok).toBe(!refused);
    if (!verdict.ok && fragment) expect(verdict.reason).toContain(fragment);
  });

  it("lets allow-listed private targets through", () => {
    const allowList = ["127.0.0.1", "localhost", "10.0.0.0/8", "*.corp.example", "::1"];
    for (const url of [
      "http://127.0.0.1:3000/",
      "http://localhost:3000/",
      "http://10.9.8.7/",
      "http://mcp.corp.example/",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
    ]) {
      expect(checkProxyTarget(url, { allowList }), url).toEqual({ ok: true });
    }
    expect(checkProxyTarget("http://192.168.0.1/", { allowList }).ok).toBe(false);
  });

  it("never lets metadata through, even when allow-listed", () => {
    const allowList = ["169.254.169.254", "169.254.0.0/16", "metadata.google.internal"];
    expect(checkProxyTarget("http://169.254.169.254/", { allowList }).ok).toBe(false);
    expect(checkProxyTarget("http://metadata.google.internal/", { allowList }).ok).toBe(false);
  });

  it("with allowListOnly refuses public hosts that are not listed", () => {
    const options = { allowList: ["mcp.example.com"], allowListOnly: true };
    expect(checkProxyTarget("https://mcp.example.com/mcp", options).ok).toBe(true);
    expect(checkProxyTarget("https://other.example.com/mcp", options)).toEqual({ ok: false, reason: "other.example.com is not on the proxy allow-list" });
  });
});

describe("checkResolvedAddress", () => {
  it("refuses names that resolve to forbidden or unlisted private addresses", () => {
    expect(checkResolvedAddress("evil.example", "169.254.169.254")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("evil.example resolves to 169.254.169.254") as unknown,
    });
    expect(checkResolvedAddress("evil.example", "::ffff:10.0.0.1").ok).toBe(false);
    expect(checkResolvedAddress("evil.example", "93.184.216.34").ok).toBe(true);
    expect(checkResolvedAddress("localhost", "127.0.0.1", { allowList: ["localhost"] }).ok).toBe(true);
    expect(checkResolvedAddress("box.lan", "192.168.1.5", { allowList: ["192.168.1.0/24"] }).ok).toBe(true);
    expect(checkResolvedAddress("localhost", "169.254.1.1", { allowList: ["localhost"] }).ok).toBe(false);
  });
});

describe("ip-ranges", () => {
  it("parses IPv4, IPv6 and mapped forms to the same bytes", () => {
    expect(parseIp("127.0.0.1")).toEqual(parseIp("::ffff:7f00:1"));
    expect(parseIp("[::ffff:127.0.0.1]")).toEqual(parseIp("127.0.0.1"));
    for (const bad of ["1.2.3", "1.2.3.256", "::1::2", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "example.com", ""]) expect(parseIp(bad), bad).toBeNull();
  });

  it("classifies and matches CIDRs", () => {
    expect(classifyAddress("8.8.8.8")).toEqual({ kind: "public" });
    expect(classifyAddress("::1")).toEqual({ kind: "private", label: "loopback" });
    expect(classifyAddress("example.com")).toBeNull();
    expect(ipInCidr("10.255.0.1", "10.0.0.0/8")).toBe(true);
    expect(ipInCidr("11.0.0.1", "10.0.0.0/8")).toBe(false);
    expect(ipInCidr("fd00::5", "fd00::/8")).toBe(true);
  });
});
