import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  // Every module keeps its own tables (the module that alone writes them: architecture.test.ts).
  schema: ["./src/server/*/tables.ts", "./src/server/*/*/tables.ts"],
  out: "./src/server/db/migrations",
});
