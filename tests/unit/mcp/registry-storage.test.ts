import { describe, expect, it } from "vitest";
import { createRegistryStorage, SECRETS_KEY, SERVERS_KEY } from "@/lib/mcp/registry-storage";
import type { RemovableTextStorage } from "@/lib/storage/key-value";
import type { ServerConfig } from "@/lib/mcp/types";
import { memoryStorage } from "../../fixtures/mcp/memory-storage";

const remote: ServerConfig = {
  id: "weather",
  name: "Weather",
  transport: "streamable-http",
  url: "https://w.example/mcp",
  headers: { authorization: "Bearer s3cret" },
  enabled: true,
};
const local: ServerConfig = { id: "files", name: "files", transport: "stdio", command: "npx", args: ["-y", "fs"], env: { API_TOKEN: "t0ken" }, enabled: false };

describe("registry storage", () => {
  it("keeps configs and secrets under separate versioned keys and reads them back", () => {
    const storage = memoryStorage();
    const store = createRegistryStorage(storage);
    expect(store.save({ servers: [remote, local], demoSeeded: true })).toEqual({ ok: true });
    expect(SERVERS_KEY).toMatch(/:v1$/);
    const configs = storage.data.get(SERVERS_KEY) ?? "";
    expect(configs).not.toMatch(/s3cret|t0ken/);
    expect(storage.data.get(SECRETS_KEY)).toMatch(/s3cret/);
    expect(store.load()).toEqual({ servers: [remote, local], demoSeeded: true, problems: [] });
  });

  it("forgetSecrets wipes every secret in one go", () => {
    const storage = memoryStorage();
    const store = createRegistryStorage(storage);
    store.save({ servers: [remote, local], demoSeeded: true });
    store.forgetSecrets();
    expect(storage.data.has(SECRETS_KEY)).toBe(false);
    const loaded = store.load();
    expect(loaded.servers.map((s) => [s.headers, s.env])).toEqual([
      [{}, undefined],
      [undefined, {}],
    ]);
  });

  it("starts clean on corrupt JSON and says so", () => {
    const store = createRegistryStorage(memoryStorage({ [SERVERS_KEY]: "{not json", [SECRETS_KEY]: "[]" }));
    const loaded = store.load();
    expect(loaded.servers).toEqual([]);
    expect(loaded.demoSeeded).toBe(false);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]).toMatch(/could not be read/);
  });

  it("drops unreadable entries and unreadable secrets, keeping the rest", () => {
    const servers = JSON.stringify({
      version: 1,
      demoSeeded: true,
      servers: [{ id: "weather", name: "Weather", transport: "streamable-http", url: "https://w.example/mcp", enabled: true }, { name: 3 }],
    });
    const loaded = createRegistryStorage(memoryStorage({ [SERVERS_KEY]: servers, [SECRETS_KEY]: '{"version":1,"servers":{"weather":7}}' })).load();
    expect(loaded.servers.map((s) => s.id)).toEqual(["weather"]);
    expect(loaded.problems).toEqual([expect.stringMatching(/secrets .* not in a format/), expect.stringMatching(/Saved server #2 could not be read/)]);
  });

  it("ignores a format it does not know", () => {
    const loaded = createRegistryStorage(memoryStorage({ [SERVERS_KEY]: JSON.stringify({ version: 2, servers: {} }) })).load();
    expect(loaded).toMatchObject({ servers: [], demoSeeded: false });
    expect(loaded.problems[0]).toMatch(/not in a format this version knows/);
  });

  it("reports a storage that refuses writes or reads instead of throwing", () => {
    expect(createRegistryStorage(memoryStorage({}, true)).save({ servers: [remote], demoSeeded: true })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/could not be saved.*quota/) as unknown,
    });
    const refusing: RemovableTextStorage = {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
      setItem: () => undefined,
      removeItem: () => undefined,
    };
    expect(createRegistryStorage(refusing).load().problems[0]).toMatch(/denied/);
  });
});
