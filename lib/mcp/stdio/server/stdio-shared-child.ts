/**
 * One stdio server process shared by every page (tab) that runs the same server: the same
 * command, arguments, environment and folder (docs/mcp-client.md, "The MCP client": local
 * servers belong to the person). Each page's bridge session holds a lease; the process sees one
 * MCP client.
 *
 * - **initialize** goes to the process once; later leases get the same answer (the page's
 *   clients all send the same capabilities), and `notifications/initialized` is sent once.
 * - **Requests** get ids of the process's own (`c1`, `c2`…), and their progress tokens too
 *   (`p1`…), so two pages' ids never meet; answers and progress go back to the lease that asked,
 *   with its own ids. A lease's `notifications/cancelled` names the process's id.
 * - **The server's own requests** (sampling, elicitation, roots) go to one lease: the one whose
 *   request went out last while it still waits for answers (the call that most likely caused
 *   it), else the last active one. **The server's notifications** (logging, list changes,
 *   resource updates) go to every lease.
 * - **A lease that leaves** cancels its open requests at the server and declines the server's
 *   requests it was asked; the last one to leave tells the owner (`onVacant`), which decides when
 *   the process stops.
 *
 * - **The era** is learnt once, on the process's own pipe, before any page uses it (`probeEra`):
 *   a 2026-07-28 server answers `server/discover`; a 2025 one refuses it or stays silent. A
 *   2026-07-28 page's requests need nothing else here: each carries its version and
 *   capabilities, and ids are rewritten the same way.
 *
 * Message routing over a `send`/`onmessage` child: no process handling here.
 */
import "server-only";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/client";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";

/** Which revision a process speaks: "modern" 2026-07-28, "legacy" 2025-11-25 (docs/mcp-client.md, "Protocol eras"). */
export type ProcessEra = "modern" | "legacy";

/** The process exited while it was asked `server/discover`: a 2025 server that ends on anything before `initialize`. */
export class ExitedOnProbe extends Error {
  override readonly name = "ExitedOnProbe";
}

const PROBE_ID = "era-probe";

/** What the multiplexer needs of a process. */
export interface MessageChild {
  onmessage?: (message: JSONRPCMessage) => void;
  send(message: JSONRPCMessage): void;
}

/** One page's share of the process. */
export interface Lease {
  /** A message from the page to the server. */
  send(message: JSONRPCMessage): void;
  /** Messages from the server to this page. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** The page is done with the server; `why` tells the owner how (see `onVacant`). */
  detach(why?: string): void;
}

// JSON-RPC "internal error" for a server request whose page went away.
const PAGE_GONE = -32603;

type Json = Record<string, unknown>;

class SharedLease implements Lease {
  onmessage?: (message: JSONRPCMessage) => void;
  /** Its open requests: its id (as a key) → the process's id. */
  readonly open = new Map<string, string>();
  attached = true;
  constructor(
    readonly n: number,
    private readonly owner: SharedChild,
  ) {}
  send(message: JSONRPCMessage): void {
    if (this.attached) this.owner.fromLease(this, message);
  }
  detach(why?: string): void {
    if (!this.attached) return;
    this.attached = false;
    this.owner.leave(this, why);
  }
  deliver(message: JSONRPCMessage): void {
    if (this.attached) this.onmessage?.(message);
  }
}

const keyOf = (id: RequestId) => `${typeof id}:${String(id)}`;

export class SharedChild {
  /** Told when the last lease left, with the reason it gave. */
  onVacant?: (why: string | undefined) => void;
  private readonly leases = new Set<SharedLease>();
  private counter = 0;
  private leaseCounter = 0;
  /** The process's request id → who asked, and the progress token it rewrote. */
  private readonly requests = new Map<string, { lease: SharedLease; id: RequestId; token?: string }>();
  /** The process's progress token → the lease's own. */
  private readonly progress = new Map<string, { lease: SharedLease; token: string | number }>();
  /** The server's requests → the lease asked to answer. */
  private readonly asked = new Map<string, SharedLease>();
  private initialized?: Json;
  private initializing?: { childId: string; waiting: Array<{ lease: SharedLease; id: RequestId }> };
  private initializedSent = false;
  private lastActive?: SharedLease;
  private probing?: (message: JSONRPCMessage) => void;

  constructor(private readonly child: MessageChild) {
    child.onmessage = (message) => this.fromChild(message);
  }

  /**
   * Asks the process `server/discover` before any page uses it: "modern" when it answers with a
   * result, "legacy" when it answers an error or nothing within `timeoutMs`. Rejects with
   * `ExitedOnProbe` when the process ends first (`exited` settles when it does).
   */
  probeEra(timeoutMs: number, exited: Promise<unknown>): Promise<ProcessEra> {
    return new Promise<ProcessEra>((resolve, reject) => {
      const done = (outcome: ProcessEra | ExitedOnProbe) => {
        if (!this.probing) return;
        this.probing = undefined;
        clearTimeout(timer);
        if (outcome instanceof ExitedOnProbe) reject(outcome);
        else resolve(outcome);
      };
      const timer = setTimeout(() => done("legacy"), timeoutMs);
      this.probing = (message) => done(isJSONRPCResultResponse(message) ? "modern" : "legacy");
      void exited.then(() => done(new ExitedOnProbe("The process exited when asked server/discover")));
      this.child.send({
        jsonrpc: "2.0",
        id: PROBE_ID,
        method: "server/discover",
        params: {
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
            [CLIENT_INFO_META_KEY]: { name: "code-mode-playground", version: "0.1.0" },
            [CLIENT_CAPABILITIES_META_KEY]: {},
          },
        },
      });
    });
  }

  /** Leases held now. */
  get size(): number {
    return this.leases.size;
  }

  /** A new page's share of the process. */
  attach(): Lease {
    const lease = new SharedLease(++this.leaseCounter, this);
    this.leases.add(lease);
    return lease;
  }

  /** @internal a message from a lease. */
  fromLease(lease: SharedLease, message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) {
      if (message.method === "initialize") return this.initialize(lease, message.id, message);
      const childId = `c${++this.counter}`;
      const params = message.params;
      const meta = params?._meta;
      const token = meta?.progressToken;
      let rewritten: string | undefined;
      if (typeof token === "string" || typeof token === "number") {
        rewritten = `p${this.counter}`;
        this.progress.set(rewritten, { lease, token });
      }
      this.requests.set(childId, { lease, id: message.id, ...(rewritten ? { token: rewritten } : {}) });
      lease.open.set(keyOf(message.id), childId);
      this.lastActive = lease;
      const outParams = rewritten && params ? { ...params, _meta: { ...meta, progressToken: rewritten } } : params;
      this.child.send({ ...message, id: childId, ...(outParams ? { params: outParams } : {}) });
      return;
    }
    if (isJSONRPCNotification(message)) {
      if (message.method === "notifications/initialized") {
        if (this.initializedSent) return;
        this.initializedSent = true;
      }
      if (message.method === "notifications/cancelled") {
        const requestId = message.params?.requestId;
        const childId = typeof requestId === "string" || typeof requestId === "number" ? lease.open.get(keyOf(requestId)) : undefined;
        if (childId === undefined) return;
        this.child.send({ ...message, params: { ...message.params, requestId: childId } });
        return;
      }
      this.child.send(message);
      return;
    }
    // The page's answer to a request of the server's: only from the lease it was sent to.
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id === undefined) return;
      const key = keyOf(message.id);
      if (this.asked.get(key) !== lease) return;
      this.asked.delete(key);
      this.child.send(message);
    }
  }

  /** @internal a lease left. */
  leave(lease: SharedLease, why: string | undefined): void {
    this.leases.delete(lease);
    // Its requests will never be read: the server may stop working on them.
    for (const childId of lease.open.values()) {
      const entry = this.requests.get(childId);
      this.requests.delete(childId);
      if (entry?.token) this.progress.delete(entry.token);
      this.child.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: childId, reason: "The page went away" } });
    }
    lease.open.clear();
    for (const [key, asked] of this.asked) {
      if (asked !== lease) continue;
      this.asked.delete(key);
      const [type, ...rest] = key.split(":");
      const raw = rest.join(":");
      this.child.send({
        jsonrpc: "2.0",
        id: type === "number" ? Number(raw) : raw,
        error: { code: PAGE_GONE, message: "The page this request was sent to went away" },
      });
    }
    if (this.initializing) this.initializing.waiting = this.initializing.waiting.filter((w) => w.lease !== lease);
    if (this.lastActive === lease) this.lastActive = undefined;
    if (this.leases.size === 0) this.onVacant?.(why);
  }

  private initialize(lease: SharedLease, id: RequestId, message: JSONRPCMessage): void {
    if (this.initialized) {
      lease.deliver({ jsonrpc: "2.0", id, result: this.initialized });
      return;
    }
    if (this.initializing) {
      this.initializing.waiting.push({ lease, id });
      return;
    }
    const childId = `c${++this.counter}`;
    this.initializing = { childId, waiting: [{ lease, id }] };
    this.child.send({ ...message, id: childId });
  }

  private fromChild(message: JSONRPCMessage): void {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const childId = message.id === undefined ? undefined : String(message.id);
      // The era probe's answer (a late one, after its timeout, is dropped below as unknown).
      if (childId === PROBE_ID) return this.probing?.(message);
      if (childId !== undefined && this.initializing?.childId === childId) {
        const { waiting } = this.initializing;
        this.initializing = undefined;
        // A failed initialize is not kept: the next page asks the server again.
        if (isJSONRPCResultResponse(message)) this.initialized = message.result;
        for (const { lease, id } of waiting) lease.deliver({ ...message, id });
        return;
      }
      const entry = childId === undefined ? undefined : this.requests.get(childId);
      if (!entry || childId === undefined) return;
      this.requests.delete(childId);
      entry.lease.open.delete(keyOf(entry.id));
      if (entry.token) this.progress.delete(entry.token);
      entry.lease.deliver({ ...message, id: entry.id });
      return;
    }
    if (isJSONRPCRequest(message)) {
      const lease = this.answerer();
      if (!lease) {
        this.child.send({ jsonrpc: "2.0", id: message.id, error: { code: PAGE_GONE, message: "No page is connected to answer this request" } });
        return;
      }
      this.asked.set(keyOf(message.id), lease);
      lease.deliver(message);
      return;
    }
    if (isJSONRPCNotification(message) && message.method === "notifications/progress") {
      const token = message.params?.progressToken;
      const entry = typeof token === "string" ? this.progress.get(token) : undefined;
      if (entry) entry.lease.deliver({ ...message, params: { ...message.params, progressToken: entry.token } });
      return;
    }
    for (const lease of this.leases) lease.deliver(message);
  }

  /** Who answers a request of the server's: the last lease to send a request it still waits on, else the last active, else any. */
  private answerer(): SharedLease | undefined {
    if (this.lastActive?.attached && this.lastActive.open.size > 0) return this.lastActive;
    let waiting: SharedLease | undefined;
    for (const lease of this.leases) if (lease.open.size > 0) waiting = lease;
    return waiting ?? (this.lastActive?.attached ? this.lastActive : [...this.leases].at(-1));
  }
}
