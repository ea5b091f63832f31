import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * What `npm start` passes to node (its V8 flags and the compiled entry, as absolute paths): tests
 * and benchmarks start the server as `npm start` does, without npm in between.
 */
export function startCommandArgs(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  // `exec`: the shell npm starts is replaced by node, so npm's signals reach the server.
  const [command, ...args] = pkg.scripts.start.replace(/^exec /, "").split(/\s+/);
  if (command !== "node") throw new Error(`npm start should run node, not ${command}`);
  return args.map((a) => (a.startsWith("-") ? a : path.join(root, a)));
}
