import path from "node:path";
import { z } from "zod";

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("localhost"),
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CURRENCY: z
    .string()
    .regex(/^[A-Za-z]{3}$/, "must be a three-letter ISO currency code")
    .default("USD")
    .transform((s) => s.toUpperCase()),
  SEED_DEMO_DATA: z
    .enum(["true", "false"])
    .default("true")
    .transform((s) => s === "true"),
  WEB_DIST_DIR: z.string().min(1).default("dist/web"),
});

export type Config = Readonly<{
  env: "development" | "production" | "test";
  port: number;
  host: string;
  /** External PostgreSQL; when absent the app starts an embedded one in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  currency: string;
  seedDemoData: boolean;
  webDistDir: string;
}>;

export class ConfigError extends Error {}

/** Parses the environment once. The only place in the server that reads `process.env`. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const e = parsed.data;
  return Object.freeze({
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    currency: e.CURRENCY,
    seedDemoData: e.SEED_DEMO_DATA,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
  });
}
