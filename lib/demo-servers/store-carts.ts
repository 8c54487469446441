/**
 * Carts and orders for the `store` demo. The demo route builds a fresh McpServer per request
 * (stateless transport), so cart state lives here, at module level, in a bounded LRU map: it
 * survives across requests in one server process and cannot grow without limit. On a
 * multi-instance deployment a cart lives on one instance only; good enough for a demo.
 *
 * Cart and order ids are random, the one non-deterministic output of the demos: predictable
 * ids would let visitors of a shared deployment read and order each other's carts.
 */
import { LruMap } from "./lru";
import { roundMoney } from "./result";
import { findStore } from "./store-data";
import type { Store } from "./store-data";

/** One line of a cart. */
export interface CartLine {
  itemId: string;
  name: string;
  unitPrice: number;
  quantity: number;
}

/** A cart: one store, some lines, and the order id once placed. */
export interface Cart {
  id: string;
  storeId: string;
  lines: CartLine[];
  orderId?: string;
}

/** Largest quantity of one item in a cart. */
export const MAX_QUANTITY = 20;

const randomId = (prefix: string) => `${prefix}_${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;

/** Bounded cart storage. */
export class CartBook {
  private readonly carts: LruMap<string, Cart>;

  constructor(capacity = 1000) {
    this.carts = new LruMap(capacity);
  }

  /** A new empty cart for a store. */
  create(storeId: string): Cart {
    const cart: Cart = { id: randomId("cart"), storeId, lines: [] };
    this.carts.set(cart.id, cart);
    return cart;
  }

  /** A cart by id, or undefined when unknown or evicted. */
  get(id: string): Cart | undefined {
    return this.carts.get(id);
  }

  get size(): number {
    return this.carts.size;
  }
}

/** The process-wide cart book the store server uses (cap: 1 000 carts). */
export const carts = new CartBook(1000);

function storeOf(cart: Cart): Store {
  const store = findStore(cart.storeId);
  if (!store) throw new Error(`cart ${cart.id} points at unknown store ${cart.storeId}`);
  return store;
}

/** The cart as tools return it. */
export function cartView(cart: Cart) {
  const store = storeOf(cart);
  const items = cart.lines.map((l) => ({ ...l, lineTotal: roundMoney(l.unitPrice * l.quantity) }));
  return {
    cartId: cart.id,
    storeId: store.id,
    storeName: store.name,
    items,
    subtotal: roundMoney(items.reduce((sum, l) => sum + l.lineTotal, 0)),
    currency: "EUR" as const,
  };
}

/** Adds an item (or more of it); returns an error message when it cannot. */
export function addToCart(cart: Cart, itemId: string, quantity: number): string | undefined {
  if (cart.orderId) return `Cart ${cart.id} was already ordered (order ${cart.orderId}); create a new cart.`;
  const store = storeOf(cart);
  const item = store.menu.find((m) => m.id === itemId);
  if (!item) return `${store.name} has no menu item "${itemId}"; call get_menu for the ids (${store.menu.map((m) => m.id).join(", ")}).`;
  if (!item.available) return `${item.name} is sold out at ${store.name}.`;
  const line = cart.lines.find((l) => l.itemId === itemId);
  const total = (line?.quantity ?? 0) + quantity;
  if (total > MAX_QUANTITY) return `At most ${MAX_QUANTITY} of one item per cart; the cart would hold ${total}.`;
  if (line) line.quantity = total;
  else cart.lines.push({ itemId, name: item.name, unitPrice: item.price, quantity });
  return undefined;
}

/** Everything that stands between the cart and an order, plus the totals. */
export function checkOrder(cart: Cart) {
  const store = storeOf(cart);
  const view = cartView(cart);
  const problems: string[] = [];
  if (cart.orderId) problems.push(`the cart was already ordered (order ${cart.orderId})`);
  if (cart.lines.length === 0) problems.push("the cart is empty");
  if (!store.isOpen) problems.push(`${store.name} is closed${store.opensAt ? ` (opens at ${store.opensAt})` : ""}`);
  if (cart.lines.length > 0 && view.subtotal < store.minimumOrder) {
    problems.push(`the minimum order at ${store.name} is ${store.minimumOrder.toFixed(2)} EUR; the subtotal is ${view.subtotal.toFixed(2)} EUR`);
  }
  return {
    cartId: cart.id,
    valid: problems.length === 0,
    problems,
    subtotal: view.subtotal,
    deliveryFee: store.deliveryFee,
    total: roundMoney(view.subtotal + store.deliveryFee),
    currency: "EUR" as const,
    etaMinutes: store.etaMinutes,
  };
}

/** Places the order when the cart passes every check; the cart is then closed. */
export function placeOrder(cart: Cart, tip: number): { orderId: string; total: number; etaMinutes: number } | { error: string } {
  const check = checkOrder(cart);
  if (!check.valid) return { error: `Order not placed: ${check.problems.join("; ")}.` };
  cart.orderId = randomId("order");
  return { orderId: cart.orderId, total: roundMoney(check.total + tip), etaMinutes: check.etaMinutes };
}
