import { defineConfig } from "@playwright/test";

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
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
});
