import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

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
            "tests/system/**/*.test.ts",
            "tests/security/**/*.test.ts",
          ],
          environment: "node",
          globalSetup: ["tests/support/postgres-global-setup.ts"],
          setupFiles: ["tests/support/fail-on-console-error.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
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
