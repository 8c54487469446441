/**
 * The queue in front of the code-mode server's thread pool (node/thread-pool.ts): fair shares
 * instead of first come, first served. Each item belongs to a client (an MCP session) and a lane
 * (a hash of its program's code). The next item is the oldest of the lane that has used the
 * sandbox least lately, within the client that has used it least lately; use is charged in
 * milliseconds of sandbox time when a run ends and halves every `halfLifeMs`, so a client or a
 * program that spins to its CPU limit drops behind everyone else, and catches up once it stops.
 * Pure.
 */

interface Usage {
  ms: number;
  at: number;
}

interface Lane<T> {
  items: Array<{ item: T; seq: number }>;
}

interface Client<T> {
  lanes: Map<string, Lane<T>>;
}

export interface FairQueueOptions {
  /** How fast past use is forgotten (default 10 000 ms). */
  halfLifeMs?: number;
  now?: () => number;
}

export class FairQueue<T> {
  private readonly clients = new Map<string, Client<T>>();
  private readonly usage = new Map<string, Usage>();
  private readonly halfLifeMs: number;
  private readonly now: () => number;
  private seq = 0;
  private count = 0;

  constructor(options: FairQueueOptions = {}) {
    this.halfLifeMs = options.halfLifeMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get length(): number {
    return this.count;
  }

  push(item: T, client: string, lane: string): void {
    let c = this.clients.get(client);
    if (!c) this.clients.set(client, (c = { lanes: new Map() }));
    let l = c.lanes.get(lane);
    if (!l) c.lanes.set(lane, (l = { items: [] }));
    l.items.push({ item, seq: this.seq++ });
    this.count += 1;
  }

  /** Takes `item` out (a cancelled or expired wait); false when it was not queued. */
  remove(item: T): boolean {
    for (const [clientKey, c] of this.clients) {
      for (const [laneKey, l] of c.lanes) {
        const at = l.items.findIndex((entry) => entry.item === item);
        if (at < 0) continue;
        l.items.splice(at, 1);
        this.count -= 1;
        if (l.items.length === 0) c.lanes.delete(laneKey);
        if (c.lanes.size === 0) this.clients.delete(clientKey);
        return true;
      }
    }
    return false;
  }

  /** The next item by fair share, with its client and lane. */
  shift(): { item: T; client: string; lane: string } | undefined {
    const pick = <V extends { oldest: number }>(entries: Iterable<[string, V]>, key: (k: string) => string): [string, V] | undefined => {
      let best: [string, V] | undefined;
      let bestUse = Infinity;
      for (const entry of entries) {
        const use = this.used(key(entry[0]));
        if (use < bestUse || (use === bestUse && best !== undefined && entry[1].oldest < best[1].oldest)) {
          best = entry;
          bestUse = use;
        }
      }
      return best;
    };
    const clients = [...this.clients].map(
      ([k, c]) => [k, { c, oldest: Math.min(...[...c.lanes.values()].map((l) => l.items[0]?.seq ?? Infinity)) }] as [string, { c: Client<T>; oldest: number }],
    );
    const client = pick(clients, (k) => `c\u0000${k}`);
    if (!client) return undefined;
    const [clientKey, { c }] = client;
    const lanes = [...c.lanes].map(([k, l]) => [k, { l, oldest: l.items[0]?.seq ?? Infinity }] as [string, { l: Lane<T>; oldest: number }]);
    const lane = pick(lanes, (k) => `l\u0000${clientKey}\u0000${k}`);
    if (!lane) return undefined;
    const [laneKey, { l }] = lane;
    const first = l.items.shift();
    if (!first) return undefined;
    this.count -= 1;
    if (l.items.length === 0) c.lanes.delete(laneKey);
    if (c.lanes.size === 0) this.clients.delete(clientKey);
    return { item: first.item, client: clientKey, lane: laneKey };
  }

  /** Charges a finished run's sandbox time to its client and lane. */
  charge(client: string, lane: string, ms: number): void {
    for (const key of [`c\u0000${client}`, `l\u0000${client}\u0000${lane}`]) this.usage.set(key, { ms: this.used(key) + Math.max(0, ms), at: this.now() });
    // Forgotten use is dropped, so 12 000 different programs leave no trail.
    if (this.usage.size > 1_000) for (const [key] of this.usage) if (this.used(key) < 1) this.usage.delete(key);
  }

  /** A key's use now, after decay. */
  private used(key: string): number {
    const u = this.usage.get(key);
    if (!u) return 0;
    return u.ms * 0.5 ** ((this.now() - u.at) / this.halfLifeMs);
  }
}
