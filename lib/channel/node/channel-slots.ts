/**
 * The slots the channel's caps count (docs/channel.md, "The channel"): one per channel open
 * or in its handshake, per client key and in all. A slot is given back by the function `take`
 * returns, once however often it is called, so every path that ends an attempt can call it.
 */

/** Channel slots taken (open channels and upgrades in their handshake). */
export interface ChannelSlots {
  total: number;
  /** Slots per client key; a client with none is absent. */
  perClient: ReadonlyMap<string, number>;
}

/** The counts behind the caps. */
export interface SlotCounter {
  /** Slots `client` holds now. */
  held(client: string): number;
  readonly total: number;
  /** Takes a slot for `client`; the function returned gives it back, once. */
  take(client: string): () => void;
  /** A copy of the counts, for tests and the bench. */
  snapshot(): ChannelSlots;
}

export function createSlotCounter(): SlotCounter {
  const perClient = new Map<string, number>();
  let total = 0;
  return {
    held: (client) => perClient.get(client) ?? 0,
    get total() {
      return total;
    },
    take(client) {
      perClient.set(client, (perClient.get(client) ?? 0) + 1);
      total += 1;
      let holding = true;
      return () => {
        if (!holding) return;
        holding = false;
        total -= 1;
        const left = (perClient.get(client) ?? 1) - 1;
        if (left <= 0) perClient.delete(client);
        else perClient.set(client, left);
      };
    },
    snapshot: () => ({ total, perClient: new Map(perClient) }),
  };
}
