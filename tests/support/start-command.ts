import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * What `npm start` runs: the environment its script sets (`NAME=value` before `exec`), and what it
 * passes to node (its V8 flags and the compiled entry, as absolute paths). Tests and benchmarks
 * start the server as `npm start` does, without npm in between: `spawn(process.execPath,
 * start.args, { env: { ...process.env, ...start.env, … } })`. `dir`: another checkout's (the
 * benchmarks' `--against`, which runs an older revision as its own `npm start` did).
 */
export function startCommand(dir = root): { env: Record<string, string>; args: string[] } {
  const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_]+=/.test(words[0])) {
    const [name, value] = words.shift()!.split("=", 2) as [string, string];
    env[name] = value;
  }
  // `exec`: the shell npm starts is replaced by node, so npm's signals reach the server.
  if (words[0] === "exec") words.shift();
  const [command, ...args] = words;
  if (command !== "node") throw new Error(`npm start should run node, not ${command}`);
  return { env, args: args.map((a) => (a.startsWith("-") ? a : path.join(dir, a))) };
}
