// `npm run bench -- --against REV`: REV built beside the working tree, in a git worktree of its
// own (bench/.against/<sha>, git-ignored, kept for the next run against the same commit), with
// its own dependencies and its own server build, for the benchmarks to start beside ours.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { root, type StoreBuild } from "./harness";

const againstDir = path.join(root, "bench/.against");

/** Written into a revision's own node_modules once `npm ci` has finished there. */
const INSTALLED = ".bench-against-installed";

/**
 * Checks REV out beside the working tree (once per commit), installs its dependencies and builds
 * its server (`npm run build:server` there). Throws with the step that failed and what it printed.
 */
export function prepareRevisionBuild(rev: string): StoreBuild {
  let sha: string;
  try {
    sha = git(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  } catch {
    throw new Error(`--against ${rev}: git knows no such revision here`);
  }
  const dir = path.join(againstDir, sha);
  if (!existsSync(path.join(dir, ".git"))) {
    console.log(`Checking out ${rev} (${sha.slice(0, 7)}) into ${path.relative(root, dir)}...`);
    // A folder deleted by hand leaves its worktree registered: forgotten first.
    git(["worktree", "prune"]);
    git(["worktree", "add", "--detach", dir, sha]);
  }
  installDependencies(dir);
  console.log(`Building ${rev}'s server...`);
  run("npm", ["run", "build:server"], dir);
  return { label: rev, dir, sha };
}

/**
 * The working tree's node_modules, linked, when REV's package-lock.json is the same file (seconds
 * instead of minutes); otherwise `npm ci` in REV's folder, once.
 */
function installDependencies(dir: string) {
  const modules = path.join(dir, "node_modules");
  const sameLock =
    readFileSync(path.join(dir, "package-lock.json"), "utf8") ===
    readFileSync(path.join(root, "package-lock.json"), "utf8");
  const installed = lstatSync(modules, { throwIfNoEntry: false });
  if (sameLock) {
    if (!installed) symlinkSync(path.join(root, "node_modules"), modules, "dir");
    return;
  }
  // Linked while the working tree's lock file was REV's; it has changed since.
  if (installed?.isSymbolicLink()) unlinkSync(modules);
  else if (existsSync(path.join(modules, INSTALLED))) return;
  console.log(
    `Installing ${path.relative(root, dir)}'s dependencies (npm ci: its package-lock.json differs)...`,
  );
  run("npm", ["ci", "--no-audit", "--no-fund"], dir);
  writeFileSync(path.join(modules, INSTALLED), "");
}

const git = (args: string[]) => run("git", args, root).trim();

/** A command run quietly in `cwd`: its output, or an error with all it printed. */
function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  if (r.status !== 0) {
    throw new Error(
      `\`${command} ${args.join(" ")}\` failed in ${path.relative(root, cwd) || "."}:\n${r.stdout}${r.stderr}`,
    );
  }
  return r.stdout;
}
