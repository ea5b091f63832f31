import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/**
 * Tests that run against PostgreSQL: one server for the run, a database per file. Files share
 * their worker's loaded modules (isolate: false): loading the server's code once per worker
 * instead of once per file is most of the run's time saved (docs/testing.md).
 */
const serverTests = {
  environment: "node",
  isolate: false,
  globalSetup: ["tests/support/postgres-global-setup.ts"],
  setupFiles: ["tests/support/fail-on-console-error.ts"],
  // A bound on a hung test, not a speed figure: on a shared 2-core machine under a load average
  // of 20–30 (2026-12-02) tests that sign up a dozen accounts took 30–40 s and hit the former
  // 30 s; the same tests take 5–15 s on a quiet machine.
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    // Most of a server test's time is spent waiting (for PostgreSQL, a server process, a timer),
    // so four files at a time use two cores better than vitest's default (cores − 1 = one).
    maxWorkers: 4,
    projects: [
      {
        test: {
          name: "server",
          include: [
            "src/server/**/*.test.ts",
            "src/contract/**/*.test.ts",
            "scripts/**/*.test.ts",
            "tests/security/**/*.test.ts",
          ],
          ...serverTests,
        },
      },
      {
        // The store as a process (tests/system): real server processes, PgBouncer, nginx, faults.
        // Slower, and apart so that `npm run test:unit` stays a quick loop.
        test: { name: "system", include: ["tests/system/**/*.test.ts"], ...serverTests },
      },
      {
        plugins: [react()],
        test: {
          name: "web",
          include: ["src/web/**/*.test.tsx", "src/web/**/*.test.ts"],
          environment: "jsdom",
          setupFiles: ["tests/support/fail-on-console-error.ts", "tests/support/web-setup.ts"],
          // A bound on a hung test, not a speed figure: under a shared machine's load a test
          // rendering a form of 250 countries took over 5 s (vitest's default), 2026-12-05.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
