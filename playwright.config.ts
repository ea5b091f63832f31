import { defineConfig } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "./tests/support/chromium";

// The store under test is started by tests/e2e/global-setup.ts (production build, its own
// embedded PostgreSQL in a temporary folder, a free port); its address reaches the tests in
// E2E_BASE_URL (see tests/e2e/fixtures.ts).
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  // Generous: CI machines here are shared, and a journey signs up, orders and pays.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumFlags,
    },
  },
});
