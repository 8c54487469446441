// Lint with type information (STYLE.md habit 7): floating promises are errors.
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";

// Layers of lib/ (docs/ARCHITECTURE.md, "Seams"): a domain imports only lower layers.
const LAYERS = {
  text: 0,
  storage: 0,
  secrets: 0,
  net: 0,
  http: 1,
  sandbox: 1,
  codemode: 1,
  forms: 2,
  editor: 2,
  bench: 2,
  mcp: 3,
  timeline: 3,
  share: 4,
  model: 4,
};
const higherThan = (domain, layer) => Object.keys(LAYERS).filter((other) => other !== domain && LAYERS[other] >= layer);
const FRAMEWORK = ["react", "react-dom", "next", "next/*", "@/components/*", "@/app/*", "**/components/**", "**/app/**"];

// Modules that touch Node or the server's environment; each starts with import "server-only".
const SERVER_MODULES = [
  "lib/http/access",
  "lib/http/client-address",
  "lib/http/deployment",
  "lib/http/listen-addresses",
  "lib/http/route",
  "lib/http/shared-store",
  "lib/net/guarded-fetch",
  "lib/net/guarded-lookup",
  "lib/mcp/local-guard",
  "lib/mcp/proxy",
  "lib/mcp/proxy-limits",
  "lib/mcp/stdio-bridge",
  "lib/mcp/stdio-child",
  "lib/mcp/stdio-session",
  "lib/mcp/stdio-sessions",
  "lib/share/file-store",
  "lib/share/redis-store",
  "lib/share/short-link-runtime",
  "lib/model/chat-handler",
  "lib/model/provider-registry",
];

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
      "tests/fixtures/generated/**",
      "*.config.mjs",
      "next.config.js",
      // Plain JavaScript run by node on a production install; no TypeScript project to lint it in.
      "scripts/serve.mjs",
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
  // Each domain may import only domains of a lower layer, so dependencies point one way.
  ...Object.entries(LAYERS).map(([domain, layer]) => ({
    files: [`lib/${domain}/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: FRAMEWORK, message: "lib/ is framework-free: no React, Next or components here." },
            ...higherThan(domain, layer).map((other) => ({
              group: [`@/lib/${other}/*`, `../${other}/*`, `../../${other}/*`],
              message: `lib/${domain} (layer ${layer}) may not import lib/${other} (layer ${LAYERS[other]}): dependencies point down. See docs/ARCHITECTURE.md, "Seams".`,
            })),
          ],
        },
      ],
    },
  })),
  {
    // Components never import a server module. Inside lib/, the browser modules are kept from
    // them by `import "server-only"`, which fails Next's build for any client-side import.
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: SERVER_MODULES.map((m) => `@/${m}`),
              message: 'This module runs on the server only (it starts with import "server-only"); the page reaches it through its route.',
            },
          ],
        },
      ],
    },
  },
);
