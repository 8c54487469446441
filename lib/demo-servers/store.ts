/**
 * The `store` demo MCP server: food ordering from a fixed set of Berlin restaurants.
 * search → menu → cart → validate → place. place_order is the one destructive tool
 * (annotations.destructiveHint), so the playground can ask a person before it runs.
 */
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { failure, ok, STATIC_LISTS } from "./result";
import { addToCart, carts, cartView, checkOrder, MAX_QUANTITY, placeOrder } from "./store-carts";
import { CUISINES, PLACES, STORES, distanceKm, findPlace, findStore } from "./store-data";

const placeNames = Object.keys(PLACES).join(", ");
const cartId = z.string().min(1).max(64).describe("Cart id from create_cart.");
const money = (what: string) => z.number().describe(`${what}, in EUR.`);
const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

const cartShape = {
  cartId: z.string().describe("Cart id."),
  storeId: z.string().describe("Store the cart orders from."),
  storeName: z.string().describe("Display name of the store."),
  items: z
    .array(
      z.object({
        itemId: z.string().describe("Menu item id."),
        name: z.string().describe("Dish name."),
        unitPrice: money("Price of one"),
        quantity: z.number().int().min(1).max(MAX_QUANTITY).describe("How many."),
        lineTotal: money("unitPrice × quantity"),
      }),
    )
    .describe("Cart lines, in the order they were added."),
  subtotal: money("Sum of line totals, before the delivery fee"),
  currency: z.literal("EUR").describe("Currency of every amount."),
};

function missingCart(id: string) {
  return failure(`No cart "${id}": it never existed or expired. Create one with create_cart.`);
}

/** Builds a fresh `store` server (carts persist in store-carts.ts across servers). */
export function createStoreServer(): McpServer {
  const server = new McpServer(
    { name: "store", version: "1.0.0", title: "Food ordering (demo)" },
    {
      instructions: `Fictional restaurants in Berlin (${placeNames}). Find a store, read its menu, fill a cart, validate, then place the order.`,
      cacheHints: STATIC_LISTS,
    },
  );

  server.registerTool(
    "search_stores",
    {
      title: "Search stores",
      description:
        "Finds restaurants by cuisine near a Berlin neighbourhood, nearest first, with whether each is open now, its delivery fee and its minimum order. Closed stores are included unless openOnly is true.",
      inputSchema: {
        cuisine: z.enum(CUISINES).optional().describe("Cuisine to look for; omit for every cuisine."),
        near: z.string().min(1).max(64).describe(`Neighbourhood to search around: one of ${placeNames}.`),
        openOnly: z.boolean().default(false).describe("True to leave out stores that are closed now."),
      },
      outputSchema: {
        near: z.string().describe("The neighbourhood searched around."),
        stores: z
          .array(
            z.object({
              id: z.string().describe("Store id, for get_menu and create_cart."),
              name: z.string().describe("Display name."),
              cuisine: z.enum(CUISINES).describe("Cuisine."),
              isOpen: z.boolean().describe("Whether the store takes orders now."),
              opensAt: z.string().optional().describe("Opening time (HH:MM) when closed."),
              distanceKm: z.number().describe("Distance from the neighbourhood centre in km."),
              rating: z.number().describe("Average rating out of 5."),
              deliveryFee: money("Delivery fee"),
              minimumOrder: money("Smallest subtotal accepted"),
              etaMinutes: z.number().int().min(0).max(240).describe("Typical delivery time in minutes."),
            }),
          )
          .describe("Matching stores, nearest first."),
      },
      annotations: readOnly,
    },
    ({ cuisine, near, openOnly }) => {
      const place = findPlace(near);
      if (!place) return failure(`Unknown neighbourhood "${near}". Known: ${placeNames}.`);
      const stores = STORES.filter((s) => (!cuisine || s.cuisine === cuisine) && (!openOnly || s.isOpen))
        .map(({ menu: _menu, lat, lng, ...s }) => ({ ...s, distanceKm: distanceKm(place, { lat, lng }) }))
        .sort((a, b) => a.distanceKm - b.distanceKm || a.id.localeCompare(b.id));
      return ok({ near: place.name, stores });
    },
  );

  server.registerTool(
    "get_menu",
    {
      title: "Get a menu",
      description: "Returns a store's menu with prices and availability. Sold-out items cannot be added to a cart.",
      inputSchema: { storeId: z.string().min(1).max(64).describe("Store id from search_stores.") },
      outputSchema: {
        storeId: z.string().describe("Store id."),
        storeName: z.string().describe("Display name."),
        isOpen: z.boolean().describe("Whether the store takes orders now."),
        items: z
          .array(
            z.object({
              id: z.string().describe("Menu item id, for add_to_cart."),
              name: z.string().describe("Dish name."),
              description: z.string().describe("What is in it."),
              price: money("Price"),
              vegetarian: z.boolean().describe("True when the dish has no meat or fish."),
              available: z.boolean().describe("False when sold out."),
            }),
          )
          .describe("Every dish."),
        currency: z.literal("EUR").describe("Currency of every price."),
      },
      annotations: readOnly,
    },
    ({ storeId }) => {
      const store = findStore(storeId);
      if (!store) return failure(`No store "${storeId}". Use search_stores to find store ids.`);
      return ok({ storeId: store.id, storeName: store.name, isOpen: store.isOpen, items: store.menu, currency: "EUR" });
    },
  );

  server.registerTool(
    "create_cart",
    {
      title: "Create a cart",
      description: "Creates an empty cart for one store and returns its id. A cart holds dishes from that store only. Carts are kept in memory and may expire.",
      inputSchema: { storeId: z.string().min(1).max(64).describe("Store id from search_stores.") },
      outputSchema: cartShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ storeId }) => {
      const store = findStore(storeId);
      if (!store) return failure(`No store "${storeId}". Use search_stores to find store ids.`);
      return ok(cartView(carts.create(store.id)));
    },
  );

  server.registerTool(
    "add_to_cart",
    {
      title: "Add to cart",
      description: `Adds a dish to a cart, or more of a dish already in it (at most ${MAX_QUANTITY} of one dish). Returns the updated cart.`,
      inputSchema: {
        cartId,
        itemId: z.string().min(1).max(64).describe("Menu item id from get_menu."),
        quantity: z.number().int().min(1).max(MAX_QUANTITY).default(1).describe(`How many to add (1–${MAX_QUANTITY}, default 1).`),
      },
      outputSchema: cartShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ cartId: id, itemId, quantity }) => {
      const cart = carts.get(id);
      if (!cart) return missingCart(id);
      const problem = addToCart(cart, itemId, quantity);
      return problem ? failure(problem) : ok(cartView(cart));
    },
  );

  server.registerTool(
    "validate_order",
    {
      title: "Validate an order",
      description:
        "Checks whether a cart can be ordered now (store open, minimum order reached, not empty, not already ordered) and prices it with the delivery fee. Changes nothing.",
      inputSchema: { cartId },
      outputSchema: {
        cartId: z.string().describe("Cart id."),
        valid: z.boolean().describe("True when place_order would succeed."),
        problems: z.array(z.string()).describe("Why the order cannot be placed; empty when valid."),
        subtotal: money("Sum of line totals"),
        deliveryFee: money("Delivery fee"),
        total: money("subtotal + deliveryFee, before any tip"),
        currency: z.literal("EUR").describe("Currency of every amount."),
        etaMinutes: z.number().int().min(0).max(240).describe("Expected delivery time in minutes."),
      },
      annotations: readOnly,
    },
    ({ cartId: id }) => {
      const cart = carts.get(id);
      return cart ? ok(checkOrder(cart)) : missingCart(id);
    },
  );

  server.registerTool(
    "place_order",
    {
      title: "Place an order",
      description:
        "Places the order for a cart: the food is cooked and delivered and the payment method is charged. Cannot be undone. Fails with the reasons when validate_order would report problems.",
      inputSchema: {
        cartId,
        deliveryAddress: z.string().min(5).max(200).describe('Street address in Berlin, e.g. "Oranienstraße 25, 10999 Berlin".'),
        paymentMethod: z.enum(["card", "cash", "paypal"]).describe("How the customer pays."),
        tip: z.number().min(0).max(50).default(0).describe("Tip for the courier in EUR (0–50, default 0)."),
      },
      outputSchema: {
        orderId: z.string().describe("Order id."),
        cartId: z.string().describe("The cart that was ordered."),
        status: z.literal("confirmed").describe("Order status."),
        deliveryAddress: z.string().describe("Where the food goes."),
        paymentMethod: z.enum(["card", "cash", "paypal"]).describe("How the customer pays."),
        total: money("Amount charged: subtotal + delivery fee + tip"),
        currency: z.literal("EUR").describe("Currency of the total."),
        etaMinutes: z.number().int().min(0).max(240).describe("Expected delivery time in minutes."),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ cartId: id, deliveryAddress, paymentMethod, tip }) => {
      const cart = carts.get(id);
      if (!cart) return missingCart(id);
      const placed = placeOrder(cart, tip);
      if ("error" in placed) return failure(placed.error);
      return ok({
        orderId: placed.orderId,
        cartId: id,
        status: "confirmed",
        deliveryAddress,
        paymentMethod,
        total: placed.total,
        currency: "EUR",
        etaMinutes: placed.etaMinutes,
      });
    },
  );

  return server;
}
