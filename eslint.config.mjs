// Lint with type information: floating promises are errors.
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";

// Layers of lib/ (docs/ARCHITECTURE.md, "Seams"): a domain imports only lower layers.
export const LAYERS = {
  text: 0,
  numbers: 0,
  random: 0,
  state: 0,
  storage: 0,
  secrets: 0,
  net: 0,
  // How the page's bundle is cut: stand-ins for libraries it imports but never runs
  // (next.config.js), and what it loads after its first screen (load-later.ts).
  bundle: 0,
  // MCP Apps (the ui extension): read by the catalog (codemode) and the client (mcp), so below both.
  "mcp-apps": 1,
  http: 2,
  sandbox: 2,
  codemode: 2,
  forms: 3,
  editor: 3,
  bench: 3,
  // The page's one WebSocket: its protocol, the page's end and the app's end, over http's route errors.
  channel: 3,
  // The demo MCP servers and the captured catalog's host: fixtures of the product, which the client seeds.
  "demo-servers": 3,
  mcp: 4,
  timeline: 4,
  // A run's calls to the world: servers' tools as host functions, and their wrappers (approvals,
  // mocks, replay): over the MCP client and the timeline types they report in.
  "host-calls": 5,
  // Skills: programs kept as tools, over the replay and the timeline they are tested with.
  skills: 6,
  share: 7,
  model: 7,
  "codemode-mcp": 7,
  evals: 8,
  // The app's API routes, defined once, and the channel's listener that carries them: over every server part.
  routes: 8,
  // The page's state, built once (servers, workbench, editor, chat, tasks): over every domain.
  playground: 9,
};
const higherThan = (domain, layer) => Object.keys(LAYERS).filter((other) => other !== domain && LAYERS[other] >= layer);
const FRAMEWORK = ["react", "react-dom", "next", "next/*", "@/components/*", "@/app/*", "**/components/**", "**/app/**"];

// Where a file runs is the folder it is in (docs/ARCHITECTURE.md, "Seams"): inside lib/<domain>/,
// at any depth (lib/mcp/stdio/server/), server/ is the Next server (each file starts with import "server-only"), node/ is a Node process
// (the headless runner, loopback servers), browser/ the page, worker/ the sandbox worker; the domain
// root and its other folders hold pure code that runs anywhere.
const PLACES = ["server", "node", "browser", "worker"];
const importOf = (places) => `^(\\.{1,2}/|@/lib/)(.*/)?(${places.join("|")})/`;
const PLACE_RULES = {
  pure: { forbid: PLACES, message: "Pure lib/ code runs anywhere, so it may not import server/, node/, browser/ or worker/ modules; inject what it needs." },
  server: { forbid: ["browser", "worker"], message: "Server code may not import browser/ or worker/ modules." },
  node: { forbid: ["browser", "worker"], message: "Node code may not import browser/ or worker/ modules." },
  browser: { forbid: ["server", "node"], message: "Browser code may not import server/ or node/ modules; the page reaches the server through its routes." },
  worker: { forbid: ["server", "node", "browser"], message: "The sandbox worker may not import server/, node/ or browser/ modules." },
};
const placeRestriction = (place) => ({ regex: importOf(PLACE_RULES[place].forbid), message: PLACE_RULES[place].message });

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      // npm run package: the staged package.
      "dist/**",
      "public/_sandbox/**",
      "node_modules/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
      "tests/fixtures/generated/**",
      "*.config.mjs",
      "next.config.js",
      // Plain JavaScript run by node (the production server, its build steps, the dev launcher); no TypeScript project to lint it in.
      "scripts/serve.mjs",
      "scripts/build-server.mjs",
      "scripts/build-worker.mjs",
      "scripts/dev.mjs",
      "scripts/build.mjs",
      "scripts/next-env.mjs",
      "scripts/listen-settings.mjs",
      "scripts/compile-hints.mjs",
      "scripts/package.mjs",
      "bin/*.mjs",
      // Local MCP servers the tests start with node itself, as a person's mcp.json would.
      "tests/fixtures/mcp/*.mjs",
      ".tmp-*",
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/only-throw-error": "off",
    },
  },
  {
    files: ["components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
    },
  },
  // lib/ is framework-free: it never imports React, Next or components (docs/ARCHITECTURE.md, "Seams").
  // Each domain may import only domains of a lower layer, so dependencies point one way; and each
  // file's folder limits what it may import by where it runs (PLACE_RULES).
  ...Object.entries(LAYERS).flatMap(([domain, layer]) =>
    ["pure", ...PLACES].map((place) => ({
      files: place === "pure" ? [`lib/${domain}/**/*.ts`] : [`lib/${domain}/**/${place}/**/*.ts`],
      ...(place === "pure" ? { ignores: PLACES.map((p) => `lib/${domain}/**/${p}/**`) } : {}),
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              { group: FRAMEWORK, message: "lib/ is framework-free: no React, Next or components here." },
              ...higherThan(domain, layer).map((other) => ({
                group: [`@/lib/${other}/*`, `../${other}/*`, `../../${other}/*`, `../../../${other}/*`, `../../../../${other}/*`],
                message: `lib/${domain} (layer ${layer}) may not import lib/${other} (layer ${LAYERS[other]}): dependencies point down. See docs/ARCHITECTURE.md, "Seams".`,
              })),
              placeRestriction(place),
            ],
          },
        ],
      },
    })),
  ),
  {
    // Components run in the page: never a server/ or node/ module (Next's build also fails on a
    // client import of a module that starts with import "server-only").
    files: ["components/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [placeRestriction("browser")] }] },
  },
);
