import fs from "node:fs";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Every folder under src/web/features is a feature: a new one is fenced in without editing this.
const features = fs
  .readdirSync(new URL("./src/web/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      "dist",
      "data",
      "node_modules",
      "test-results",
      "playwright-report",
      "bench/results",
      "bench/.against",
      "src/server/db/migrations",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver()] },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "import-x/no-cycle": "error",
      "import-x/no-default-export": "off",
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            // One-way imports: web and server both use the contract, never each other.
            { target: "./src/web", from: "./src/server" },
            { target: "./src/server", from: "./src/web" },
            { target: "./src/contract", from: ["./src/web", "./src/server"] },
            // Features are composed in src/web/app, never import one another.
            ...features.map((f) => ({
              target: `./src/web/features/${f}`,
              from: "./src/web/features",
              except: [`./${f}`],
            })),
            // Shared web code does not reach into features or the app.
            {
              target: ["./src/web/components", "./src/web/lib"],
              from: ["./src/web/features", "./src/web/app"],
            },
          ],
        },
      ],
    },
  },
  {
    // The server's statements are built with src/server/db/sql.ts's tag (its text pieces made once).
    files: ["src/server/**/*.ts"],
    ignores: ["src/server/**/*.test.ts", "src/server/db/sql.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "drizzle-orm",
              importNames: ["sql"],
              message:
                "Use sql from src/server/db/sql.ts: drizzle's tag rebuilds its text pieces on every call.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "react-router",
              importNames: ["Link", "NavLink"],
              message:
                "Use Link and NavLink from src/web/components/link.tsx: React Router's own carry framework-mode code onto every page.",
            },
            {
              name: "react-router",
              importNames: ["useSearchParams"],
              message:
                "Use useUrlParams from src/web/lib/use-url-params.ts: React Router's useSearchParams would put its code back on every page.",
            },
          ],
        },
      ],
    },
  },
);
