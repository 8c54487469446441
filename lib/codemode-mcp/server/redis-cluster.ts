/**
 * The code-mode server's cluster (lib/codemode-mcp/cluster.ts) over the shared Redis
 * (CMP_REDIS_URL, lib/http/server/shared-store.ts):
 *
 * - **Presence**: each instance renews `codemode:alive:<id>` every `renewMs`; it expires after
 *   `aliveMs` without renewal, so a killed instance is known gone within that.
 * - **Task records**: `codemode:task:<taskId>`, JSON, expiring with the task's TTL.
 * - **Messages**: each instance subscribes to `codemode:inst:<id>`; an ask is published there
 *   with a fresh id and the asker's own channel, and the answer comes back on it. An ask to an
 *   instance nobody listens for, or whose presence lapses while it waits, is rejected with
 *   InstanceGoneError rather than left waiting.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { SharedRedis } from "../../http/server/shared-store";
import { InstanceGoneError, RemoteError } from "../cluster";
import type { Cluster, ClusterMessage, SharedTask } from "../cluster";
import { messageOf } from "../../text/error-message";

export interface RedisClusterOptions {
  redis: SharedRedis;
  /** Key prefix (CMP_REDIS_PREFIX). */
  prefix: string;
  /** How long presence lasts without renewal (default 6 000 ms). */
  aliveMs?: number;
  /** How often presence is renewed (default 2 000 ms). */
  renewMs?: number;
  /** How often a waiting ask checks that its instance is still there (default 1 000 ms). */
  checkMs?: number;
  /** Where a failed reply is reported (default console.error). */
  log?: (message: string) => void;
}

type Envelope =
  | { kind: "ask"; id: string; from: string; message: ClusterMessage }
  | { kind: "reply"; id: string; ok: true; value: unknown }
  | { kind: "reply"; id: string; ok: false; message: string; code?: number };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

function isSharedTask(value: unknown): value is SharedTask {
  const v = value as Partial<SharedTask> | null;
  return typeof v === "object" && v !== null && typeof v.owner === "string" && typeof v.client === "string" && typeof v.task?.taskId === "string";
}

/** Joins the cluster of instances sharing `redis`: presence starts at once, messages are served once `serve` is called. */
export function createRedisCluster(options: RedisClusterOptions): Cluster {
  const { redis } = options;
  const self = randomUUID();
  const aliveMs = options.aliveMs ?? 6_000;
  const checkMs = options.checkMs ?? 1_000;
  const log = options.log ?? ((message: string) => console.error(message));
  const key = (...parts: string[]) => `${options.prefix}codemode:${parts.join(":")}`;
  const inbox = (instance: string) => key("inst", instance);
  const pending = new Map<string, Pending>();
  let handler: ((message: ClusterMessage) => Promise<unknown>) | undefined;
  let closed = false;

  const renew = () => void redis.set(key("alive", self), "1", aliveMs).catch(() => undefined);
  renew();
  const renewer = setInterval(renew, options.renewMs ?? 2_000);
  renewer.unref?.();

  const send = (instance: string, envelope: Envelope) => redis.publish(inbox(instance), JSON.stringify(envelope));

  const answer = async (from: string, id: string, message: ClusterMessage) => {
    let reply: Envelope;
    try {
      if (!handler) throw new Error("This instance does not serve other instances yet");
      reply = { kind: "reply", id, ok: true, value: (await handler(message)) ?? null };
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      reply = { kind: "reply", id, ok: false, message: messageOf(error), ...(typeof code === "number" ? { code } : {}) };
    }
    await send(from, reply).catch((error: unknown) => log(`code-mode MCP server: could not answer another instance: ${messageOf(error)}`));
  };

  const unsubscribe = redis.subscribe(inbox(self), (text) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.kind === "ask") void answer(envelope.from, envelope.id, envelope.message);
    else if (envelope.kind === "reply") {
      const waiting = pending.get(envelope.id);
      if (!waiting) return;
      if (envelope.ok) waiting.resolve(envelope.value);
      else waiting.reject(new RemoteError(envelope.message, envelope.code));
    }
  });

  const isAlive = async (instance: string) => instance === self || (await redis.get(key("alive", instance))) !== null;

  return {
    self,
    putTask: (record, pxMs) => redis.set(key("task", record.task.taskId), JSON.stringify(record), pxMs),
    async getTask(taskId) {
      const text = await redis.get(key("task", taskId));
      if (text === null) return undefined;
      try {
        const record: unknown = JSON.parse(text);
        return isSharedTask(record) ? record : undefined;
      } catch {
        return undefined;
      }
    },
    isAlive,
    ask(instance, message, signal) {
      if (closed) return Promise.reject(new Error("This instance is closing"));
      const id = randomUUID();
      return new Promise<unknown>((resolve, reject) => {
        const watch = setInterval(() => {
          isAlive(instance).then(
            (alive) => alive || pending.get(id)?.reject(new InstanceGoneError()),
            (error: unknown) => pending.get(id)?.reject(error),
          );
        }, checkMs);
        watch.unref?.();
        const onAbort = () => settle(() => reject(signal?.reason instanceof Error ? signal.reason : new Error("The request was stopped")));
        const settle = (finish: () => void) => {
          if (!pending.has(id)) return;
          pending.delete(id);
          clearInterval(watch);
          signal?.removeEventListener("abort", onAbort);
          finish();
        };
        pending.set(id, {
          resolve: (value) => settle(() => resolve(value)),
          reject: (error) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
        });
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        send(instance, { kind: "ask", id, from: self, message }).then(
          (listeners) => listeners === 0 && pending.get(id)?.reject(new InstanceGoneError()),
          (error: unknown) => pending.get(id)?.reject(error),
        );
      });
    },
    serve(serveWith) {
      handler = serveWith;
    },
    async close() {
      closed = true;
      clearInterval(renewer);
      for (const waiting of [...pending.values()]) waiting.reject(new Error("This instance is closing"));
      await unsubscribe();
      await redis.del(key("alive", self)).catch(() => undefined);
    },
  };
}
