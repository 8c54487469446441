/**
 * One connection to a shared Redis that heals by itself and never makes a request wait on a
 * Redis that is gone (docs/security.md, "Many instances"):
 *
 * - **Reconnect forever**, with a backoff capped at `maxBackoffMs`, whether Redis went away,
 *   was never there (the app may start before it), or stopped answering.
 * - **Fail fast**: while Redis is down a command fails at once (the client's offline queue is
 *   off); a command Redis does not answer within `commandTimeoutMs` fails then. The client's own
 *   command timeout covers only commands not yet written, so a frozen Redis (SIGSTOP, a network
 *   partition that keeps the socket) would otherwise hold written ones forever: here the
 *   deadline ends the command, and the connection it ran on is thrown away (every command
 *   waiting on it fails with it) and a fresh one opened.
 * - **One handle for the process's life**: components keep this object, never a client, so no
 *   component can hold a dead client.
 *
 * Built on the official client (@redis/client). Server only.
 */
import "server-only";
import { createClient } from "@redis/client";

/** Whether the shared store can be used, for /api/health and the operator's log. */
export interface RedisStatus {
  state: "connecting" | "up" | "down";
  /** When the state last changed (ms since the epoch). */
  since: number;
  /** Why it is down, for the operator's log only: it may name internal addresses. */
  reason?: string;
}

/** The few commands this app uses; a narrow type keeps the client's generics out of every signature. */
export interface SharedRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  get(key: string): Promise<string | null>;
  /** SET with an expiry in ms. */
  set(key: string, value: string, pxMs: number): Promise<void>;
  del(key: string): Promise<void>;
  /** PUBLISH: how many subscribers got the message. */
  publish(channel: string, message: string): Promise<number>;
  /**
   * Listens on `channel` over a connection of its own (a subscribed connection takes no other
   * commands). It connects in the background and subscribes again after every reconnect; the
   * returned function ends it.
   */
  subscribe(channel: string, listener: (message: string) => void): () => Promise<void>;
  /** A PING within the deadline: true when Redis answered. Never throws. */
  ping(): Promise<boolean>;
  status(): RedisStatus;
  close(): Promise<void>;
}

/** A command that failed because Redis is down or did not answer in time (not a script error). */
export class RedisUnavailableError extends Error {
  override name = "RedisUnavailableError";
}

/** Tuning; the defaults suit a load-balanced deployment. */
export interface RedisConnectionOptions {
  /** How long a command may wait for Redis's answer (default 1 000 ms). */
  commandTimeoutMs?: number;
  /** The longest wait between reconnect attempts (default 2 000 ms). */
  maxBackoffMs?: number;
  /** Where state changes are reported (default: console.error / console.info). */
  log?: (message: string, level: "error" | "info") => void;
}

function newClient(url: string, connectTimeout: number, maxBackoffMs: number) {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout,
      // Never gives up: 100 ms doubling to the cap, with jitter so instances do not reconnect in step.
      reconnectStrategy: (retries) => Math.min(100 * 2 ** Math.min(retries, 16), maxBackoffMs) + Math.floor(Math.random() * 100),
    },
  });
}

type Client = ReturnType<typeof newClient>;

const defaultLog = (message: string, level: "error" | "info") => (level === "error" ? console.error(message) : console.info(message));

function text(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/** Opens (lazily, on the first command) a healing connection to `url`. */
export function openRedisConnection(url: string, options: RedisConnectionOptions = {}): SharedRedis {
  const commandTimeoutMs = options.commandTimeoutMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 2_000;
  const log = options.log ?? defaultLog;
  let client: Client | undefined;
  // Resolves when the current client is first ready; a command waits on it only while the first
  // attempt is under way (state "connecting"), never once Redis is known to be down.
  let ready: Promise<void> = Promise.resolve();
  let closed = false;
  let status: RedisStatus = { state: "connecting", since: Date.now() };

  const setState = (state: RedisStatus["state"], reason?: string) => {
    if (state === status.state) {
      if (reason !== undefined) status = { ...status, reason };
      return;
    }
    status = { state, since: Date.now(), ...(reason !== undefined ? { reason } : {}) };
    if (state === "down") log(`shared store: Redis is down (${reason ?? "unknown"}); requests that need it answer 503 until it is back`, "error");
    if (state === "up") log("shared store: Redis is up", "info");
  };

  const open = (): Client => {
    const redis = newClient(url, Math.max(commandTimeoutMs, 1_000), maxBackoffMs);
    // Without a listener an unreachable Redis would crash the process.
    redis.on("error", (error: unknown) => {
      if (client === redis) setState("down", text(error));
    });
    redis.on("ready", () => {
      if (client === redis) setState("up");
    });
    ready = new Promise<void>((resolve) => redis.once("ready", () => resolve()));
    // Rejects only when the client is destroyed; reconnecting is the strategy's job.
    redis.connect().catch(() => undefined);
    return redis;
  };

  /** Throws the current client away after it failed to answer; the next command opens another. */
  const recycle = (stale: Client, reason: string) => {
    if (client !== stale) return;
    client = undefined;
    setState("down", reason);
    stale.destroy();
  };

  const withDeadline = async <T>(work: Promise<T>, onTimeout: () => void): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onTimeout();
        reject(new RedisUnavailableError(`Redis did not answer within ${commandTimeoutMs} ms`));
      }, commandTimeoutMs);
    });
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
    }
  };

  const command = async <T>(run: (redis: Client) => Promise<T>): Promise<T> => {
    if (closed) throw new RedisUnavailableError("The shared store is closed");
    let current = client;
    if (!current) {
      current = open();
      client = current;
    }
    if (!current.isReady) {
      if (status.state !== "connecting") throw new RedisUnavailableError(status.reason ?? "Redis is not connected");
      const waiting = current;
      await withDeadline(ready, () => {
        if (client === waiting && status.state === "connecting") setState("down", "Redis did not accept a connection in time");
      });
    }
    const used = current;
    try {
      return await withDeadline(run(used), () => recycle(used, `Redis did not answer within ${commandTimeoutMs} ms`));
    } catch (error) {
      if (error instanceof RedisUnavailableError) throw error;
      // The client's own offline and closed errors mean the same as ours.
      if (!used.isReady) throw new RedisUnavailableError(text(error));
      throw error;
    }
  };

  return {
    eval: (script, args) => command((redis) => redis.eval(script, args)),
    get: (key) => command((redis) => redis.get(key)),
    set: (key, value, pxMs) =>
      command((redis) => redis.set(key, value, { expiration: { type: "PX", value: Math.max(1, Math.round(pxMs)) } })).then(() => undefined),
    del: (key) => command((redis) => redis.del(key)).then(() => undefined),
    publish: (channel, message) => command((redis) => redis.publish(channel, message)),
    subscribe(channel, listener) {
      // Its own client with the offline queue on: the SUBSCRIBE waits for the first connection,
      // and the client re-sends it after each reconnect.
      const subscriber = createClient({
        url,
        socket: { reconnectStrategy: (retries) => Math.min(100 * 2 ** Math.min(retries, 16), maxBackoffMs) + Math.floor(Math.random() * 100) },
      });
      subscriber.on("error", () => undefined);
      subscriber.connect().catch(() => undefined);
      subscriber
        .subscribe(channel, (message) => listener(message))
        .catch((error: unknown) => log(`shared store: could not subscribe: ${text(error)}`, "error"));
      return () => {
        subscriber.destroy();
        return Promise.resolve();
      };
    },
    ping: () =>
      command((redis) => redis.ping()).then(
        () => true,
        () => false,
      ),
    status: () => status,
    close() {
      closed = true;
      const current = client;
      client = undefined;
      if (current) current.destroy();
      return Promise.resolve();
    },
  };
}
