#!/usr/bin/env node
// `npm run package [-- --no-build] [--out DIR]`: the installable package, a tarball that carries
// its build (docs/packaging.md). Builds (unless --no-build), stages dist/package/ and packs it
// with `npm pack` into DIR (default: this folder):
//
//   package.json   no dependencies: everything the running app reads is inside
//   bin/           the command (bin/code-mode-playground.mjs, as in a clone)
//   app/           Next's standalone server (.next/standalone: compiled routes and the
//                  node_modules files they read), the page's assets, the sandbox worker,
//                  serve.mjs, and in .next/cmp/ one esbuild bundle of the server parts
//                  serve.mjs loads and of the command line (scripts/cli.ts with agent, eval
//                  and the sandbox thread), sharing their common code
//   evals/         the example suites and the large catalog's captured servers
//
// The staged tree is checked before it is packed: no test file, no server source map, no .env,
// nothing that looks like a key, and no path of this machine.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { SERVER_PARTS, serverBundle } from "./build-server.mjs";

const { values } = parseArgs({ options: { "no-build": { type: "boolean", default: false }, out: { type: "string", default: "." } } });
const root = process.cwd();
const stage = path.join(root, "dist", "package");
const fail = (message) => {
  process.stderr.write(`npm run package: ${message}\n`);
  process.exit(1);
};
const run = (command, args, options = {}) => {
  const step = spawnSync(command, args, { stdio: "inherit", ...options });
  if (step.status !== 0) fail(`${command} ${args.join(" ")} exited with ${step.status ?? step.signal}`);
  return step;
};

if (!existsSync(path.join(root, "scripts", "package.mjs"))) fail("run it from the project's folder.");
if (!values["no-build"]) run(process.execPath, ["scripts/build.mjs"]);
const standalone = path.join(root, ".next", "standalone");
if (!existsSync(path.join(standalone, ".next", "required-server-files.json"))) {
  fail("there is no standalone build in .next/ (run `npm run build`, or leave out --no-build).");
}
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

// app/: the standalone server (its own server.js and package.json are not used: the command
// starts scripts/serve.mjs, the same server `npm start` runs).
const app = path.join(stage, "app");
// Next writes source maps of the server's chunks too, and copies the sandbox thread's source
// beside its compiled chunk (the server runs the chunk); the package leaves both out.
const runs = (source) => !source.endsWith(".map") && !/[\\/]\.next[\\/]server[\\/]assets[\\/][^\\/]+\.ts$/.test(source);
for (const part of [".next", "node_modules"]) cpSync(path.join(standalone, part), path.join(app, part), { recursive: true, filter: runs });
cpSync(path.join(root, ".next", "static"), path.join(app, ".next", "static"), { recursive: true });
cpSync(path.join(root, "public"), path.join(app, "public"), { recursive: true });
for (const file of ["serve.mjs", "listen-settings.mjs", "next-env.mjs"]) cpSync(path.join(root, "scripts", file), path.join(app, "scripts", file));
cpSync(path.join(root, "next.config.js"), path.join(app, "next.config.js"));
writeFileSync(path.join(app, "package.json"), `${JSON.stringify({ private: true, type: "module" }, null, 2)}\n`);
// The build's configuration names the folder it was built in; the server needs none of it.
const serverFiles = path.join(app, ".next", "required-server-files.json");
writeFileSync(serverFiles, JSON.stringify(JSON.parse(readFileSync(serverFiles, "utf8"), (_key, value) => (value === root ? "." : value))));

// .next/cmp/: the parts of the production server scripts/build-server.mjs bundles, and the
// command line, in one build so that they share their common code (the MCP SDK, the model
// providers, the tokenizer), minified but with their names kept for stack traces. Every file
// lands in the one folder, so a module finds its neighbours by name from wherever it ends up.
const cmp = path.join(app, ".next", "cmp");
/** The sandbox's thread is the compiled module beside the bundle (lib/sandbox/node/thread-worker.ts). */
const compiledThread = {
  name: "compiled-sandbox-thread",
  setup(builder) {
    builder.onLoad({ filter: /lib[\\/]sandbox[\\/]node[\\/]thread-worker\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.includes('"./sandbox-thread.ts"'))
        throw new Error("lib/sandbox/node/thread-worker.ts no longer names ./sandbox-thread.ts (scripts/package.mjs)");
      return { contents: source.replaceAll('"./sandbox-thread.ts"', '"./sandbox-thread.mjs"'), loader: "ts" };
    });
  },
};
await build({
  ...serverBundle,
  entryPoints: {
    ...SERVER_PARTS,
    cli: "scripts/cli.ts",
    "sandbox-thread": "lib/sandbox/node/sandbox-thread.ts",
  },
  outdir: cmp,
  outExtension: { ".js": ".mjs" },
  splitting: true,
  chunkNames: "[name]-[hash]",
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [compiledThread],
});
// QuickJS's Node build reads its .wasm beside the module that loads it.
cpSync(path.join(root, "node_modules", "@jitl", "quickjs-wasmfile-release-sync", "dist", "emscripten-module.wasm"), path.join(cmp, "emscripten-module.wasm"));
// The example suites and the large catalog's captured servers, for `code-mode-playground eval`:
// three folders above the bundle, where lib/evals/node/catalog-servers.ts looks from its own
// folder in a clone.
cpSync(path.join(root, "evals"), path.join(stage, "evals"), { recursive: true });
if (!existsSync(path.join(cmp, "..", "..", "..", "evals", "catalog"))) fail("evals/catalog is not where the bundle looks for it.");
cpSync(path.join(root, "bin", "code-mode-playground.mjs"), path.join(stage, "bin", "code-mode-playground.mjs"));

writeFileSync(
  path.join(stage, "package.json"),
  `${JSON.stringify(
    {
      name: manifest.name,
      version: manifest.version,
      description: manifest.description,
      type: "module",
      engines: manifest.engines,
      bin: { "code-mode-playground": "bin/code-mode-playground.mjs" },
      keywords: ["mcp", "model-context-protocol", "code-mode", "playground", "quickjs"],
    },
    null,
    2,
  )}\n`,
);
writeFileSync(
  path.join(stage, "README.md"),
  `# Code Mode Playground

${manifest.description}

\`\`\`sh
npx code-mode-playground            # serves the playground on 127.0.0.1:3000 and prints its link
npx code-mode-playground --port 4000 --host 127.0.0.1
npx code-mode-playground mcp --config mcp.json [--skills DIR]   # code mode for your own agents, on stdio
npx code-mode-playground agent "<prompt>" [--config mcp.json]   # the agent loop, headless
npx code-mode-playground eval suite.json                        # an eval suite, headless
npx code-mode-playground skills convert <from> <to>
\`\`\`

Open the printed link (its \`#cmp-token\` lets the page start local stdio MCP servers). The offline
demo model and four demo MCP servers are built in: no key is needed. Each command takes
\`--help\`. Node.js 22 or newer.
`,
);

// What must never be shipped.
const problems = [];
// An API key's shape, or a PEM private key with its body (libraries that read keys hold the bare marker).
const secretLooking = /(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,}|AKIA[0-9A-Z]{16}|-----BEGIN [A-Z ]*PRIVATE KEY-----\s*[A-Za-z0-9+/]{40})/;
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const relative = path.relative(stage, full);
    if (entry.isDirectory()) {
      if (entry.name === "tests" && !relative.includes("node_modules")) problems.push(`a tests folder: ${relative}`);
      walk(full);
      continue;
    }
    if (/^\.env/.test(entry.name)) problems.push(`an environment file: ${relative}`);
    if (entry.name.endsWith(".map") && !relative.startsWith(path.join("app", ".next", "static"))) problems.push(`a server source map: ${relative}`);
    if (statSync(full).size > 64 * 1024 * 1024) problems.push(`a file over 64 MiB: ${relative}`);
    const text = readFileSync(full).toString("latin1");
    if (text.includes(root)) problems.push(`names this machine's ${root}: ${relative}`);
    if (secretLooking.test(text)) problems.push(`holds a string that looks like a key: ${relative}`);
  }
};
walk(stage);
if (problems.length > 0) fail(`the package would ship what it must not:\n  ${problems.join("\n  ")}`);

const out = path.resolve(root, values.out);
mkdirSync(out, { recursive: true });
const packed = spawnSync("npm", ["pack", stage, "--json", "--pack-destination", out], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
if (packed.status !== 0) fail(`npm pack exited with ${packed.status ?? packed.signal}`);
const [info] = JSON.parse(packed.stdout);
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
process.stdout.write(
  `${path.join(out, info.filename)}: ${mib(info.size)} packed, ${mib(info.unpackedSize)} unpacked, ${info.entryCount} files.\n` +
    `Try it: npx -p ./${path.relative(process.cwd(), path.join(out, info.filename))} code-mode-playground\n`,
);
