import path from "node:path";
import type { Locator, Page } from "@playwright/test";

/**
 * A screenshot for people to look at (docs/testing.md "Screenshots"): written to
 * `$SCREENSHOT_DIR/<name>.png` when SCREENSHOT_DIR names a folder, and not taken otherwise. The
 * CI sets none: a picture nobody opens costs seconds (a tall full page, more) and has hung
 * Chromium, and no test asserts on one. A page is shot whole unless `fullPage` is false.
 */
export async function screenshot(
  target: Page | Locator,
  name: string,
  opts: { fullPage?: boolean } = {},
): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  const file = path.join(dir, `${name}.png`);
  if ("goto" in target) await target.screenshot({ path: file, fullPage: opts.fullPage ?? true });
  else await target.screenshot({ path: file });
}
