// Compiles the server (src/server/main.ts and what it imports) into one ES module,
// dist/server/main.js, which `npm start` runs with plain `node`, and the backup tool into
// dist/server/backup.js (`npm run backup` / `npm run restore`). Packages stay in node_modules
// (imported at run time, not bundled); the SQL migrations are copied beside the bundle, where
// src/server/db/database.ts looks for them (next to the running module).
import fs from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "dist/server");
// Built beside, then swapped in: tests build while other tests' servers run from dist/server,
// and a running server must never find its folder half-written or gone.
const fresh = `${outdir}.build-${process.pid}`;
const stale = `${outdir}.old-${process.pid}`;

await fs.rm(fresh, { recursive: true, force: true });
await build({
  entryPoints: {
    main: path.join(root, "src/server/main.ts"),
    // `npm run backup` / `npm run restore` (src/server/backup/cli.ts).
    backup: path.join(root, "src/server/backup/cli.ts"),
  },
  outdir: fresh,
  // Modules imported on demand (the demo identity provider) become chunks of their own, loaded
  // only when used; code both entries use is shared the same way.
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
await fs.cp(path.join(root, "src/server/db/migrations"), path.join(fresh, "migrations"), {
  recursive: true,
});
await fs.rename(outdir, stale).catch((err) => {
  if (err.code !== "ENOENT") throw err;
});
await fs.rename(fresh, outdir);
await fs.rm(stale, { recursive: true, force: true });
console.log(`built the server into ${path.relative(root, outdir)}/`);
