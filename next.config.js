// Next.js config. Everything the page needs is served from our own origin (no CDN).

/**
 * The sandbox worker's own policy (scripts/build-worker.mjs puts it in public/_sandbox/; proxy.ts
 * leaves that path alone). A worker's policy comes from its script's response: this one may load
 * scripts from this origin, compile WebAssembly (QuickJS) and fetch from this origin (the .wasm),
 * and nothing else. The page's own policy allows no WebAssembly compilation at all.
 */
export const SANDBOX_WORKER_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Next also writes a self-contained server (.next/standalone: the compiled routes and only the
  // node_modules files they read), which `npm run package` ships as the installable package
  // (docs/packaging.md). The page's images are never optimised (none is served through
  // next/image), so the image optimiser's native library stays out of that server; nor do the
  // sources and tests that Next's tracer finds behind the routes' dynamic paths: the routes run
  // their compiled chunks.
  output: "standalone",
  images: { unoptimized: true },
  // Next loads every route's modules before the server listens unless told not to; the page's
  // route loads at its first request instead, so the link prints about 0.3 s sooner and the
  // first page comes sooner too (docs/benchmarks.md, "The installable package").
  experimental: { preloadEntriesOnStart: false },
  outputFileTracingExcludes: {
    "*": ["node_modules/sharp/**", "node_modules/@img/**", "tests/**", "lib/**", "scripts/**", "evals/**", "docs/**", "**/*.map"],
  },
  // No gzip from the app server: the playground runs on this machine and is reached over loopback,
  // where compressing every chunk, and the 500 KB .wasm, on every request cost more than it saved
  // (the .wasm: 18 ms gzipped vs 2.5 ms plain; "sandbox ready" about 130 ms sooner). A deployment
  // behind a reverse proxy compresses there, as Next's own documentation advises.
  compress: false,
  // Types are checked once, by `npm run typecheck` (part of `npm test`), over the whole project
  // including scripts and tests; checking them again inside every build only doubles its time.
  typescript: { ignoreBuildErrors: true },
  // Libraries the page imports but never runs are left out of its bundle: each stands in as a
  // module that says so if it is ever called (lib/bundle/browser/; docs/speed.md, "The
  // page's start"). Server and Node code keep the real ones.
  turbopack: {
    resolveAlias: {
      ajv: { browser: "./lib/bundle/browser/ajv.ts" },
      "ajv-formats": { browser: "./lib/bundle/browser/ajv-formats.ts" },
      "@ai-sdk/gateway": { browser: "./lib/bundle/browser/ai-gateway.ts" },
      // zod's own relative import of its locale index (zod/v4/core/index.js, classic/external.js).
      "../locales/index.js": { browser: "./lib/bundle/browser/zod-locales.ts" },
    },
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
      // Nothing may frame the app, except the page framing an MCP App's sandbox page (a later rule
      // overrides an earlier one's key); its own policy says who may (frame-ancestors 'self',
      // lib/mcp-apps/frame-policy.ts), which browsers read instead of X-Frame-Options.
      { source: "/api/mcp-apps/frame", headers: [{ key: "X-Frame-Options", value: "SAMEORIGIN" }] },
      { source: "/_sandbox/:path*", headers: [{ key: "Content-Security-Policy", value: SANDBOX_WORKER_CSP }] },
      // QuickJS's .wasm is named by its content's hash (scripts/build-worker.mjs): kept for good.
      { source: "/_sandbox/:file(quickjs\\.[0-9a-f]+\\.wasm)", headers: [{ key: "Cache-Control", value: "public, max-age=31536000, immutable" }] },
    ];
  },
};

export default nextConfig;
