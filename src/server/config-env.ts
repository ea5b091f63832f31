import { z } from "zod";
import {
  APPROVAL_SETTINGS_DEFAULTS,
  APPROVAL_WINDOW_MAX_BUSINESS_DAYS,
} from "../contract/approvals";
import { hasAtMostTwoDecimals } from "../contract/common";

/**
 * The order limits' defaults (ORDER_HOLD_HOURS, HOLD_*) are what the admin's form shows until it
 * is saved, so they take only what the form takes (contract/order-limits.ts): an admin can always
 * save the form unchanged.
 */
const FORM_TAKES =
  "must be what the order limits form takes: whole hours and minutes, whole percents, at most 2 decimals of money";

/** A share of a product's stock (0.5: half) that is a whole percent from 1 to 100. */
const wholePercentShare = z.coerce
  .number()
  .min(0.01)
  .max(1)
  .refine(hasAtMostTwoDecimals, FORM_TAKES);

/**
 * Every environment variable the store reads, with its check and default: what an operator sets
 * (docs/configuration.md documents exactly these, config-docs.test.ts). `loadConfig` (config.ts)
 * turns them into the `Config` the app is built from.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("localhost"),
  DATABASE_URL: z.url().optional(),
  DATABASE_DIRECT_URL: z.url().optional(),
  DATABASE_READ_URL: z.url().optional(),
  DATABASE_READ_MAX_LAG_SECONDS: z.coerce.number().min(0.2).max(3600).default(5),
  DATABASE_READ_OWN_WRITES_SECONDS: z.coerce.number().min(1).max(3600).default(10),
  DATA_DIR: z.string().min(1).default("data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: z.enum(["json", "human"]).optional(),
  CURRENCY: z
    .string()
    .regex(/^[A-Za-z]{3}$/, "must be a three-letter ISO currency code")
    .default("USD")
    .transform((s) => s.toUpperCase()),
  /** Defaults to true, but to false when NODE_ENV is production. */
  SEED_DEMO_DATA: z
    .enum(["true", "false"])
    .optional()
    .transform((s) => (s === undefined ? undefined : s === "true")),
  WEB_DIST_DIR: z.string().min(1).default("dist/web"),
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((s, ctx) => {
      const parsed = parseTrustProxy(s);
      if (parsed === undefined) {
        ctx.addIssue({
          code: "custom",
          message:
            "false, a number of proxy hops (1 behind one nginx), or a comma-separated list of proxy addresses/CIDRs",
        });
        return z.NEVER;
      }
      return parsed;
    }),
  BETTER_AUTH_SECRET: z.string().optional(),
  ADMIN_EMAILS: z.string().default(""),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_LABEL: z.string().min(1).max(60).default("Single sign-on"),
  /** Demo accounts, the demo identity provider and /dev/mailbox off a loopback HOST (never in production). */
  DEMO: z.enum(["true", "false"]).optional(),
  DEMO_IDENTITY_PROVIDER: z
    .enum(["true", "false"])
    .default("true")
    .transform((s) => s === "true"),
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  PAYMENT_CONFIRM_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  AUTH_MAIL_SPACING_SECONDS: z.coerce.number().positive().max(3600).default(120),
  CATALOG_CACHE: z
    .enum(["true", "false"])
    .default("true")
    .transform((s) => s === "true"),
  CATALOG_PING_SECONDS: z.coerce.number().positive().max(3600).default(5),
  PLACEMENT_MEMORY: z
    .enum(["true", "false"])
    .default("true")
    .transform((s) => s === "true"),
  MARKET_CHOICE: z
    .enum(["true", "false"])
    .default("true")
    .transform((s) => s === "true"),
  ORDER_HOLD_HOURS: z.coerce
    .number()
    .int(FORM_TAKES)
    .min(1)
    .max(24 * 365)
    .default(48),
  RETURN_WINDOW_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  // The defaults an admin's approval settings replace once saved (docs/approvals.md).
  APPROVAL_WINDOW_BUSINESS_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(APPROVAL_WINDOW_MAX_BUSINESS_DAYS)
    .default(APPROVAL_SETTINGS_DEFAULTS.windowBusinessDays),
  APPROVAL_REMINDER_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(APPROVAL_SETTINGS_DEFAULTS.reminderHours),
  CORE_RETURN_WINDOW_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  HOLD_MAX_SHARE: wholePercentShare.default(0.5),
  HOLD_FREE_UNITS: z.coerce.number().int().min(0).max(1_000_000).default(10),
  HOLD_NEW_CUSTOMER_MINUTES: z.coerce
    .number()
    .int(FORM_TAKES)
    .min(1)
    .max(24 * 365 * 60)
    .default(30),
  HOLD_NEW_CUSTOMER_SHARE: wholePercentShare.default(0.2),
  HOLD_MAX_VALUE: z.coerce
    .number()
    .positive()
    .max(1e9)
    .refine(hasAtMostTwoDecimals, FORM_TAKES)
    .default(25_000),
  ORDERS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  QUICK_ORDER_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  // Catalog data files (docs/imports.md): the largest upload, counted as it streams, and the
  // most applications one ACES file may hold.
  IMPORT_MAX_FILE_MIB: z.coerce.number().int().min(1).max(4096).default(256),
  IMPORT_MAX_APPLICATIONS: z.coerce.number().int().min(1).max(10_000_000).default(1_000_000),
  IMPORT_MAX_ITEMS: z.coerce.number().int().min(1).max(10_000_000).default(200_000),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(10),
  START_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(120),
  DB_CONNECT_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(5),
  DB_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(10),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  DB_LOCK_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(2),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  ORDER_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(5),
  DB_QUEUE_MAX: z.coerce.number().int().min(0).max(1_000_000).default(50),
  EVENT_LOOP_LAG_MAX_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  REQUEST_WAIT_MAX_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  MAX_CONNECTIONS: z.coerce.number().int().min(0).max(1_000_000).default(1024),
  LISTEN_SOCKETS: z.coerce.number().int().min(1).max(256).optional(),
  ORDER_GATE_PER_PRODUCT: z.coerce.number().int().min(0).max(1000).default(2),
  PAGE_DATA_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(50),
  EMBEDDED_POSTGRES_RESTARTS: z.coerce.number().int().min(0).max(100).default(5),
  HOLD_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  HOLD_WARNING_HOURS: z.coerce
    .number()
    .int(FORM_TAKES)
    .min(1)
    .max(24 * 365)
    .default(12),
  /** The daily low-stock email to admins (docs/admin-home.md); default on, off in the demo. */
  LOW_STOCK_EMAIL: z.enum(["true", "false"]).optional(),
  /** The hour (UTC) from which the day's low-stock email goes out. */
  LOW_STOCK_EMAIL_HOUR: z.coerce.number().int().min(0).max(23).default(7),
  /** Where the store's files are kept (docs/storage.md): under DATA_DIR, or in an S3 bucket. */
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"])
    .default("false")
    .transform((s) => s === "true"),
  S3_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(5),
  /** Webhooks to private, loopback and link-local addresses (docs/webhooks.md); default: allowed
   * unless NODE_ENV=production. */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: z.enum(["true", "false"]).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// address")
    .optional()
    .or(z.literal("")),
  MAIL_FROM: z.string().min(3).max(200).default("PartsWorks <no-reply@partsworks.example>"),
  MAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  MAIL_RETRY_LIMIT: z.coerce.number().int().min(0).max(50).default(12),
  /** The seller printed on invoices (docs/invoices.md); address lines separated by `|`. */
  SELLER_NAME: z.string().trim().min(1).max(200).default("PartsWorks"),
  SELLER_ADDRESS: z.string().max(500).optional(),
  SELLER_TAX_ID: z.string().trim().max(50).optional(),
  SELLER_EMAIL: z.string().trim().max(200).optional(),
  /** The registered (legal) name on invoices when it differs from SELLER_NAME (docs/invoices.md). */
  SELLER_LEGAL_NAME: z.string().trim().max(200).optional(),
  /** Where invoices on account are paid by bank transfer (docs/invoices.md). */
  SELLER_BANK_NAME: z.string().trim().max(100).optional(),
  SELLER_BANK_ACCOUNT: z.string().trim().max(50).optional(),
  SELLER_BANK_CODE: z.string().trim().max(50).optional(),
  /**
   * The country the store sells from (ISO alpha-2; docs/tax.md): EU reverse charge is
   * for companies of, and deliveries to, other EU member states.
   */
  STORE_COUNTRY: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "must be a two-letter country code, like US or DE")
    .default("US"),
  /**
   * VIES, the Commission's register of EU VAT numbers (docs/tax.md "VIES"): its REST API's
   * address, or `off` (no look-up: the offline format check only). Unset: the Commission's, except
   * under NODE_ENV=test (off: tests use a local stand-in, never the network).
   */
  VIES_URL: z
    .string()
    .trim()
    .regex(/^(off|https?:\/\/[^\s]+)$/, "must be an http(s):// address, or off")
    .optional(),
  /** How long one VIES call may take before it counts as unanswered. */
  VIES_TIMEOUT_SECONDS: z.coerce.number().positive().max(20).default(10),
  /** Swagger UI and the OpenAPI document at /api/docs; default on outside production only. */
  API_DOCS: z.enum(["true", "false"]).optional(),
  /** Which card gateway takes payments; production has no default (see loadConfig). */
  PAYMENTS_GATEWAY: z.enum(["stripe", "test-card"]).optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters (e.g. `openssl rand -hex 32`)")
    .max(500)
    .optional()
    .or(z.literal("")),
  /** Admin routes refuse an admin without two-factor authentication; default on in production. */
  ADMIN_2FA_REQUIRED: z.enum(["true", "false"]).optional(),
  /** A session ends this long after sign-in however often it is used (the idle limit is 7 days). */
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().max(8760).default(720),
  /**
   * The Contact page (docs/returns.md): addresses and hours are lines separated by `|`; unset, the
   * store's address is SELLER_ADDRESS and the returns address is the store's.
   */
  STORE_ADDRESS: z.string().max(500).optional(),
  RETURNS_ADDRESS: z.string().max(500).optional(),
  STORE_PHONE: z.string().trim().max(50).optional(),
  STORE_HOURS: z.string().max(500).optional(),
  STORE_EMAIL: z.string().trim().max(200).optional(),
});

/** `TRUST_PROXY`: "false"/"0" → false; "true" → 1 (one proxy in front); "2" → 2 hops; else a list. */
function parseTrustProxy(value: string): false | number | string[] | undefined {
  const v = value.trim();
  if (v === "" || v === "false" || v === "0") return false;
  if (v === "true") return 1;
  if (/^\d+$/.test(v)) return Math.min(Number(v), 10);
  const list = v.split(",").map((x) => x.trim());
  const address = /^[0-9a-fA-F.:]+(\/\d{1,3})?$/;
  if (
    list.every(
      (x) => address.test(x) || x === "loopback" || x === "linklocal" || x === "uniquelocal",
    )
  )
    return list;
  return undefined;
}
