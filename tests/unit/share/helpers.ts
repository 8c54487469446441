import { inflateRaw } from "@/lib/share/compress";
import { base64UrlToBytes } from "@/lib/share/base64url";
import type { ShareInputs } from "@/lib/share/build";
import type { ServerConfig } from "@/lib/mcp/types";

/** Every planted secret contains this marker; nothing containing it may leave in a share. */
export const MARK = "PLANTED";

/** The JSON inside link text, decompressed without any validation. */
export async function inflateLink(encoded: string): Promise<string> {
  const bytes = base64UrlToBytes(encoded.slice(encoded.indexOf(".") + 1));
  if (!bytes) throw new Error("not base64url");
  const inflated = await inflateRaw(bytes, 64 * 1024 * 1024);
  if (!inflated.ok) throw new Error(inflated.reason);
  return new TextDecoder().decode(inflated.bytes);
}

/** A remote server with secrets in every place a config can hold one, plus extra fields. */
export const remoteWithSecrets = {
  id: `id-${MARK}-1`,
  name: "shipping",
  transport: "streamable-http",
  url: `https://user:${MARK}-pw@mcp.example.com/mcp?api_key=${MARK}-q&region=eu#access_token=${MARK}-frag`,
  headers: { Authorization: `Bearer ${MARK}-hdr`, "X-Tenant": `${MARK}-tenant` },
  enabled: true,
  apiKey: `${MARK}-extra`,
  oauth: { clientSecret: `${MARK}-oauth`, refreshToken: `${MARK}-refresh` },
} as ServerConfig;

/** A stdio server with secrets in env, args and cwd. */
export const stdioWithSecrets: ServerConfig = {
  id: "memory",
  name: "memory",
  transport: "stdio",
  command: "npx",
  args: [
    "-y",
    "@example/server",
    "--token",
    `${MARK}-arg1`,
    `--api-key=${MARK}-arg2`,
    `API_TOKEN=${MARK}-arg3`,
    `sk-${MARK}abcdefghijklmnop`,
    `https://x.example.com/?token=${MARK}-arg5`,
  ],
  env: { GITHUB_TOKEN: `${MARK}-env`, PATH: `/usr/${MARK}-path` },
  cwd: `/home/${MARK}-cwd`,
  enabled: true,
};

/** Inputs with secrets planted in every field that could carry one, and in extra fields everywhere. */
export function plantedInputs(): ShareInputs {
  const inputs = {
    servers: [remoteWithSecrets, stdioWithSecrets],
    toolSnapshots: [
      {
        name: "shipping",
        headers: { authorization: `${MARK}-snapshot` },
        tools: [
          {
            name: "get_quote",
            description: "Quote a parcel.",
            inputSchema: { type: "object", properties: { weight: { type: "number" } } },
            _meta: { token: `${MARK}-meta` },
            apiKey: `${MARK}-tool`,
          },
        ],
      },
    ],
    systemPrompt: "You write code.",
    model: { provider: "openai", id: "gpt-5", apiKey: `${MARK}-model`, baseURL: `https://${MARK}.example.com` },
    messages: [
      { id: "m1", role: "user", parts: [{ type: "text", text: "Cheapest carrier?" }], metadata: { token: `${MARK}-meta` } },
      {
        id: "m2",
        role: "assistant",
        parts: [
          {
            type: "tool-execute_code",
            input: { code: "return 1", apiKey: `${MARK}-input`, headers: { Authorization: `Bearer ${MARK}-h` } },
            output: `Bearer ${MARK}-output`,
            providerMetadata: { openai: { itemId: `${MARK}-provider` } },
          },
        ],
      },
    ],
    code: "const q = await shipping.get_quote({ weight: 2 });\nreturn q;",
    limits: { wallMs: 30_000, apiKey: `${MARK}-limits` },
    runs: [{ code: "return 1", calls: [{ args: { password: `${MARK}-run` }, headers: { authorization: `${MARK}-run-h` } }], value: `Bearer ${MARK}-v` }],
    apiKeys: { openai: `${MARK}-top` },
  };
  return inputs;
}
