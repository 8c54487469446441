/**
 * What the built-in demo servers are, as plain data: safe to import from client components
 * (it pulls in no server code). The factories live in index.ts.
 */

/** Names of the built-in demo servers; also their URL segment under /api/demo-mcp/. */
export const DEMO_SERVER_NAMES = ["shipping", "news", "store", "lab"] as const;
/** A demo server name. */
export type DemoServerName = (typeof DEMO_SERVER_NAMES)[number];

/** A demo server as the UI lists it. */
export interface DemoServerInfo {
  name: DemoServerName;
  title: string;
  description: string;
  /**
   * The newest protocol revision it speaks (docs/mcp-client.md, "Protocol eras"). "2026-07-28":
   * stateless requests for clients of that revision, and 2025-era clients still served; "2025-11-25":
   * only the 2025 era (`initialize`), so the playground always has a server of each.
   */
  protocol: "2026-07-28" | "2025-11-25";
  /** Prompts that exercise the server well in code mode. */
  examplePrompts: readonly string[];
  /**
   * How responses travel: "json" (one JSON body per POST), or an event stream for the calls to
   * the tools named in `sse` (those that send progress notifications, which a JSON response
   * drops) and one JSON body for everything else. An event stream costs the client more to
   * read (a decoder and an event parser per response), so only the calls that need one get it.
   */
  responseMode: "json" | { sse: readonly string[] };
}

/** Every demo server, in display order. */
export const DEMO_SERVERS_INFO: readonly DemoServerInfo[] = [
  {
    name: "shipping",
    title: "Shipping",
    description: "Five fictional carriers with different price and speed trade-offs: quotes, delivery estimates and surcharges.",
    examplePrompts: [
      "Which carrier is cheapest to ship 2 kg from DE to US within 5 days?",
      "Compare the total price, surcharges included, of sending a 60×40×40 cm box weighing 8 kg from FR to JP with every carrier.",
      "What is the fastest way to get 300 kg from NL to BR, and what does it cost?",
      "Which of our 2026 shipments arrived more than 3 business days late, and which carrier was late most often?",
      "What duty and import VAT would 900 EUR of smartphones shipped to Brazil pay, and which documents does the parcel need?",
    ],
    protocol: "2026-07-28",
    responseMode: "json",
  },
  {
    name: "news",
    title: "News search",
    description: "web_search over a fixed set of 40 fictional news stories in eight regions and six languages.",
    examplePrompts: [
      "Find news about elections in every region and group the headlines by language.",
      "What is happening with shipping and ports? Search in English, German and Portuguese and summarise.",
      "List the three most recent sports stories from Europe.",
    ],
    protocol: "2026-07-28",
    responseMode: "json",
  },
  {
    name: "store",
    title: "Food ordering",
    description: "Berlin restaurants: search, menus, carts, validation and a destructive place_order.",
    examplePrompts: [
      "Order two margheritas from the best-rated open pizza place near Kreuzberg, paying by card to Oranienstraße 25.",
      "Which open vegetarian-friendly places near Friedrichshain can deliver a 20 EUR order fastest?",
      "Build the cheapest valid order from Kaiten Sushi Bar and tell me what it would cost, without placing it.",
    ],
    protocol: "2026-07-28",
    responseMode: "json",
  },
  {
    name: "lab",
    title: "Debugging lab",
    description: "Tools that misbehave on purpose: slow with progress, failing, protocol errors, huge results and flaky calls.",
    examplePrompts: [
      'Call lab.flaky with seed "demo" and rate 0.7, retrying with new attempts until it succeeds; report how many tries it took.',
      "Run three 500 ms sleeps in parallel and tell me how long the whole thing took.",
      "Call lab.fail and lab.protocol_error and explain how the two errors differ.",
    ],
    protocol: "2025-11-25",
    responseMode: { sse: ["sleep"] },
  },
];

/** True when `name` is a demo server name. */
export function isDemoServerName(name: string): name is DemoServerName {
  return (DEMO_SERVER_NAMES as readonly string[]).includes(name);
}

/** The app-relative URL of a demo server's MCP endpoint. */
export function demoServerPath(name: DemoServerName): string {
  return `/api/demo-mcp/${name}`;
}
