/** Debian's Chromium (scripts/ensure-system-packages.mjs installs it), for Playwright and Lighthouse. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags for a headless Chromium on these machines: no sandbox as root, nothing phoning home. */
export const chromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
