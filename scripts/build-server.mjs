// Compiles the server (src/server/main.ts and what it imports) into one ES module,
// dist/server/main.js, which `npm start` runs with plain `node`. Packages stay in node_modules
// (imported at run time, not bundled); the SQL migrations are copied beside the bundle, where
// src/server/db/database.ts looks for them (next to the running module).
import fs from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "dist/server");

await fs.rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, "src/server/main.ts")],
  outdir,
  // Modules imported on demand (the demo identity provider) become chunks of their own, loaded
  // only when used.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
await fs.cp(path.join(root, "src/server/db/migrations"), path.join(outdir, "migrations"), {
  recursive: true,
});
console.log(`built the server into ${path.relative(root, outdir)}/`);
