import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/** Tests that run against PostgreSQL: one server for the run, a database per file. */
const serverTests = {
  environment: "node",
  globalSetup: ["tests/support/postgres-global-setup.ts"],
  setupFiles: ["tests/support/fail-on-console-error.ts"],
  testTimeout: 30_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
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
        },
      },
    ],
  },
});
