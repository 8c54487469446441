/**
 * The shipping demo's MCP App (docs/mcp-apps.md, "MCP Apps"): the UI of `get_quote`, at
 * `ui://shipping/quote.html`. It shows the quote it is given, and on "Compare carriers" it asks
 * the host to call `list_carriers` and `get_quote` for every carrier (tools/call from an app),
 * and draws their prices as bars; where the host takes messages (the chat), it can ask the model
 * about them (`ui/message`). One self-contained document with no dependency, speaking the
 * extension's JSON-RPC over postMessage directly, so it reads as a small example of the protocol:
 * `ui/initialize`, then `ui/notifications/initialized`, then tool input and result arrive;
 * `ui/notifications/size-changed` whenever its height changes. Everything it shows is text.
 */

/** Where the app lives. */
export const QUOTE_APP_URI = "ui://shipping/quote.html";

const SCRIPT = String.raw`
const pending = new Map();
let nextId = 1;
let input = {};
let quote;
let host = {};
let compared = [];

function send(message) {
  window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
}
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}
function money(value, currency) {
  return value.toFixed(2) + " " + currency;
}

window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const message = event.data;
  if (!message || message.jsonrpc !== "2.0") return;
  if (message.id !== undefined && pending.has(message.id) && !message.method) {
    const { resolve, reject } = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) reject(new Error(message.error.message));
    else resolve(message.result);
    return;
  }
  if (message.method === "ui/notifications/tool-input") {
    input = (message.params && message.params.arguments) || {};
    render();
  } else if (message.method === "ui/notifications/tool-result") {
    quote = message.params;
    render();
  } else if (message.method === "ui/resource-teardown" && message.id !== undefined) {
    send({ id: message.id, result: {} });
  } else if (message.id !== undefined && message.method) {
    send({ id: message.id, error: { code: -32601, message: "Not supported by this app: " + message.method } });
  }
});

function render() {
  const root = document.getElementById("root");
  root.replaceChildren();
  const route = (input.origin || "?") + " → " + (input.destination || "?") + " · " + (input.weightKg ?? "?") + " kg";
  root.append(el("div", route, "route"));
  if (!quote) {
    root.append(el("div", "Waiting for the quote…", "muted"));
    return;
  }
  const value = quote.structuredContent;
  if (quote.isError || !value) {
    const text = (quote.content || []).map((c) => c.text || "").join(" ");
    root.append(el("div", text || "The quote failed.", "error"));
    return;
  }
  const card = el("div", undefined, "card");
  card.append(el("div", value.carrier, "carrier"), el("div", money(value.price, value.currency), "price"));
  card.append(el("div", value.zone + " · billed " + value.billableWeightKg + " kg", "muted"));
  root.append(card);
  const button = el("button", "Compare carriers");
  button.type = "button";
  button.addEventListener("click", () => compare(button));
  root.append(button, el("div", undefined, "bars"));
}

async function call(name, args) {
  const result = await request("tools/call", { name, arguments: args });
  return result;
}

async function compare(button) {
  button.disabled = true;
  button.textContent = "Comparing…";
  const bars = document.querySelector(".bars");
  bars.replaceChildren();
  try {
    const listed = await call("list_carriers", {});
    const carriers = (listed.structuredContent && listed.structuredContent.carriers) || [];
    const args = { origin: input.origin, destination: input.destination, weightKg: input.weightKg };
    if (input.dimensionsCm) args.dimensionsCm = input.dimensionsCm;
    const quotes = await Promise.all(carriers.map((c) => call("get_quote", { ...args, carrier: c.id }).then((r) => ({ id: c.id, r }))));
    const priced = quotes.filter((q) => !q.r.isError && q.r.structuredContent);
    const max = Math.max(...priced.map((q) => q.r.structuredContent.price), 1);
    priced.sort((a, b) => a.r.structuredContent.price - b.r.structuredContent.price);
    for (const q of priced) {
      const row = el("div", undefined, "bar" + (q.id === quote.structuredContent.carrier ? " current" : ""));
      const fill = el("span", undefined, "fill");
      fill.style.width = Math.round((q.r.structuredContent.price / max) * 100) + "%";
      row.append(el("span", q.id, "name"), fill, el("span", money(q.r.structuredContent.price, q.r.structuredContent.currency), "amount"));
      bars.append(row);
    }
    for (const q of quotes.filter((q) => q.r.isError)) bars.append(el("div", q.id + ": " + ((q.r.content || [])[0] || {}).text, "muted"));
    button.textContent = "Compare again";
    compared = priced.map((q) => q.id + " " + money(q.r.structuredContent.price, q.r.structuredContent.currency));
    // Only a host that takes messages (it said so in its capabilities) gets the button.
    if (host.message && !document.getElementById("ask")) {
      const ask = el("button", "Ask the model about these prices");
      ask.id = "ask";
      ask.type = "button";
      ask.addEventListener("click", () => {
        const route = input.origin + " → " + input.destination + ", " + input.weightKg + " kg";
        request("ui/message", { role: "user", content: [{ type: "text", text: "Which of these carriers should I pick for " + route + "? " + compared.join(", ") }] })
          .then((r) => { ask.textContent = r && r.isError ? "Not sent" : "Sent to the chat"; })
          .catch(() => { ask.textContent = "Not sent"; });
      });
      bars.after(ask);
    }
  } catch (error) {
    bars.append(el("div", "The host refused: " + error.message, "error"));
    button.textContent = "Compare carriers";
  } finally {
    button.disabled = false;
  }
}

new ResizeObserver(() => {
  send({ method: "ui/notifications/size-changed", params: { height: document.documentElement.scrollHeight } });
}).observe(document.body);

request("ui/initialize", {
  protocolVersion: "2026-01-26",
  appInfo: { name: "shipping-quote", version: "1.0.0" },
  appCapabilities: {},
}).then((result) => {
  host = (result && result.hostCapabilities) || {};
  send({ method: "ui/notifications/initialized", params: {} });
  render();
});
`;

const STYLE = `
:root{color-scheme:dark}
body{margin:0;padding:12px;font:13px/1.4 system-ui,sans-serif;color:#d8dee9;background:transparent}
.route{font-weight:600;margin-bottom:8px}
.card{display:flex;flex-wrap:wrap;gap:4px 12px;align-items:baseline;margin-bottom:10px}
.carrier{font-weight:600}.price{font-size:18px;color:#5aa9ff}
.muted{color:#8b95a5}.error{color:#f85149}
button{font:inherit;color:#fff;background:#1f6feb;border:0;border-radius:4px;padding:4px 10px;cursor:pointer}
button:disabled{opacity:.6}
#ask{margin-top:10px}
.bars{margin-top:10px;display:flex;flex-direction:column;gap:4px}
.bar{display:grid;grid-template-columns:90px 1fr 90px;gap:8px;align-items:center}
.bar .fill{height:10px;background:#3b82d6;border-radius:2px}
.bar.current .fill{background:#3fb950}.bar.current .name{font-weight:600}
.amount{text-align:right}
`;

/** The app's document. */
export const QUOTE_APP_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Shipping quote</title><style>${STYLE}</style></head>
<body><div id="root"></div><script>${SCRIPT}</script></body></html>`;
