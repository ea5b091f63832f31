// Build step after `vite build`: writes `file.br` and `file.gz` next to every text asset of the web
// build over 1 KB, at maximum quality, so the server (@fastify/static with `preCompressed`) sends
// them compressed without spending CPU on every request.
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const root = path.resolve(import.meta.dirname, "..");
const webDist = path.resolve(root, process.argv[2] ?? "dist/web");
const EXTENSIONS = new Set([".js", ".css", ".html", ".svg", ".json"]);
const MIN_BYTES = 1024;

async function* files(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    // Dot folders (Vite's .vite/ build notes) are never served; pre-rendered pages and shells
    // are completed and compressed by the server (src/server/web-app.ts).
    const servedByServer = dir === webDist && (entry.name === "pages" || entry.name === "shells");
    if (entry.name.startsWith(".") || servedByServer) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

let count = 0;
let before = 0;
let afterBrotli = 0;
let afterGzip = 0;
for await (const file of files(webDist)) {
  if (!EXTENSIONS.has(path.extname(file))) continue;
  const body = await fs.readFile(file);
  if (body.length <= MIN_BYTES) continue;
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
  count++;
  before += body.length;
  afterBrotli += br.length;
  afterGzip += gz.length;
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `compress-dist: ${count} files in ${path.relative(root, webDist) || "."}: ${kb(before)} -> ${kb(afterBrotli)} br, ${kb(afterGzip)} gz`,
);
