/** The script the editor opens with: it shows the sandbox's shape (async code, console, a returned value). */
export const SAMPLE_CODE = `// Code Mode Playground: this runs in a QuickJS sandbox inside a Web Worker.
// Press Ctrl+Enter (Cmd+Enter on a Mac) to run. The value you return shows below.
const orders = [
  { id: "A-1", items: 3, total: 42.5 },
  { id: "A-2", items: 1, total: 9.99 },
  { id: "A-3", items: 5, total: 120 },
];

const big = orders.filter((o) => o.total > 20);
console.log("orders over 20:", big.length);

return {
  count: orders.length,
  revenue: orders.reduce((sum, o) => sum + o.total, 0),
  biggest: big.map((o) => o.id),
};
`;
