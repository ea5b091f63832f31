// Makes sure the Chromium that the end-to-end tests drive is installed (Debian's package).
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (existsSync(chromium)) process.exit(0);

const isRoot = process.getuid?.() === 0;
if (process.env.CHROMIUM_PATH || !isRoot || !existsSync("/usr/bin/apt-get")) {
  console.error(
    `Chromium was not found at ${chromium}.\n` +
      "Install Debian's package as root:  apt-get update && apt-get install -y chromium\n" +
      "or point CHROMIUM_PATH at a Chromium or Chrome executable.",
  );
  process.exit(1);
}
console.log("Chromium is missing: installing Debian's chromium package (apt-get)…");
execSync("apt-get update && apt-get install -y --no-install-recommends chromium", {
  stdio: "inherit",
  env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
});
