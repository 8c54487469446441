import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LruMap } from "@/lib/demo-servers/lru";
import { CartBook } from "@/lib/demo-servers/store-carts";
import { connectClient } from "../../fixtures/mcp/client";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { checked } from "../../fixtures/mcp/tools";
import type { CheckedClient } from "../../fixtures/mcp/tools";

interface Stores {
  near: string;
  stores: Array<{ id: string; isOpen: boolean; distanceKm: number; cuisine: string }>;
}
interface Cart {
  cartId: string;
  items: Array<{ itemId: string; quantity: number; lineTotal: number }>;
  subtotal: number;
}
interface Check {
  valid: boolean;
  problems: string[];
  total: number;
}

let host: Awaited<ReturnType<typeof startDemoHost>>;
let s: CheckedClient;
beforeAll(async () => {
  host = await startDemoHost();
  s = await checked(await connectClient(host.urlFor("store")));
});
afterAll(async () => {
  await s.client.close();
  await host.close();
});

describe("store demo", () => {
  it("marks place_order destructive and the lookups read-only", () => {
    expect(s.tools.get("place_order")?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    for (const name of ["search_stores", "get_menu", "validate_order"]) expect(s.tools.get(name)?.annotations?.readOnlyHint).toBe(true);
    expect(s.tools.get("add_to_cart")?.annotations?.readOnlyHint).toBe(false);
  });

  it("finds stores nearest first, open and closed, with accent-free place names", async () => {
    const out = await s.call<Stores>("search_stores", { cuisine: "pizza", near: "neukolln" });
    expect(out.near).toBe("Neukölln");
    expect(out.stores.map((x) => x.id)).toEqual(["pizzeria-nonna", "slice-of-kreuzberg", "forno-rosso"]);
    expect(out.stores.map((x) => x.isOpen)).toEqual([true, false, true]);
    const distances = out.stores.map((x) => x.distanceKm);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    const open = await s.call<Stores>("search_stores", { cuisine: "pizza", near: "Neukölln", openOnly: true });
    expect(open.stores.every((x) => x.isOpen)).toBe(true);
  });

  it("explains an unknown neighbourhood and an unknown store", async () => {
    expect(await s.callError("search_stores", { near: "Atlantis" })).toMatch(/Known: Mitte/);
    expect(await s.callError("get_menu", { storeId: "nope" })).toMatch(/search_stores/);
  });

  it("orders end to end: menu, cart, add, validate, place", async () => {
    const menu = await s.call<{ items: Array<{ id: string; price: number; available: boolean }> }>("get_menu", { storeId: "forno-rosso" });
    expect(menu.items.length).toBeGreaterThan(2);
    const cart = await s.call<Cart>("create_cart", { storeId: "forno-rosso" });
    expect(cart).toMatchObject({ items: [], subtotal: 0 });
    await s.call<Cart>("add_to_cart", { cartId: cart.cartId, itemId: "margherita" });
    const filled = await s.call<Cart>("add_to_cart", { cartId: cart.cartId, itemId: "margherita", quantity: 1 });
    expect(filled.items).toEqual([expect.objectContaining({ itemId: "margherita", quantity: 2, lineTotal: 19 })]);
    const check = await s.call<Check>("validate_order", { cartId: cart.cartId });
    expect(check).toMatchObject({ valid: true, problems: [], subtotal: 19, deliveryFee: 2.5, total: 21.5 });
    const order = await s.call<{ orderId: string; status: string; total: number }>("place_order", {
      cartId: cart.cartId,
      deliveryAddress: "Oranienstraße 25, 10999 Berlin",
      paymentMethod: "card",
      tip: 2,
    });
    expect(order).toMatchObject({ status: "confirmed", total: 23.5 });
    expect(order.orderId).toMatch(/^order_[0-9a-f]{16}$/);
    expect(await s.callError("place_order", { cartId: cart.cartId, deliveryAddress: "Oranienstraße 25", paymentMethod: "cash" })).toMatch(/already ordered/);
    expect(await s.callError("add_to_cart", { cartId: cart.cartId, itemId: "funghi" })).toMatch(/already ordered/);
  });

  it("reports every problem with a cart that cannot be ordered", async () => {
    const closed = await s.call<Cart>("create_cart", { storeId: "slice-of-kreuzberg" });
    expect((await s.call<Check>("validate_order", { cartId: closed.cartId })).problems).toEqual([
      "the cart is empty",
      "Slice of Kreuzberg is closed (opens at 17:00)",
    ]);
    await s.call("add_to_cart", { cartId: closed.cartId, itemId: "cheese-slice" });
    const check = await s.call<Check>("validate_order", { cartId: closed.cartId });
    expect(check.valid).toBe(false);
    expect(check.problems.join("\n")).toMatch(/minimum order .* 12\.00 EUR; the subtotal is 4\.00 EUR/);
    expect(await s.callError("place_order", { cartId: closed.cartId, deliveryAddress: "Somewhere 1, Berlin", paymentMethod: "card" })).toMatch(
      /^Order not placed: .*closed/,
    );
  });

  it("refuses sold-out and unknown items, and unknown carts", async () => {
    const cart = await s.call<Cart>("create_cart", { storeId: "pizzeria-nonna" });
    expect(await s.callError("add_to_cart", { cartId: cart.cartId, itemId: "panna-cotta" })).toMatch(/sold out/);
    expect(await s.callError("add_to_cart", { cartId: cart.cartId, itemId: "sushi" })).toMatch(/no menu item/);
    expect(await s.callError("validate_order", { cartId: "cart_missing" })).toMatch(/create_cart/);
  });
});

describe("bounded cart state", () => {
  it("evicts the least recently used cart past capacity", () => {
    const book = new CartBook(2);
    const a = book.create("forno-rosso");
    const b = book.create("forno-rosso");
    book.get(a.id); // a is now the most recent
    book.create("umi");
    expect(book.size).toBe(2);
    expect(book.get(b.id)).toBeUndefined();
    expect(book.get(a.id)).toBe(a);
  });

  it("LruMap refreshes on get and set", () => {
    const m = new LruMap<string, number>(2);
    m.set("a", 1);
    m.set("b", 2);
    m.set("a", 3);
    m.set("c", 4);
    expect([m.has("a"), m.has("b"), m.has("c")]).toEqual([true, false, true]);
    expect(() => new LruMap(0)).toThrow(RangeError);
  });
});
