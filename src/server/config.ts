import path from "node:path";
import type { z } from "zod";
import { envSchema } from "./config-env";
import type { StorageSettings } from "./storage/create";
import { checkEuVatId } from "../contract/vat-ids";
import { approvalSettingsSchema } from "../contract/approvals";
import { VIES_DEFAULT_URL } from "./vies/client";

export { envSchema };

const MIN_SECRET_LENGTH = 32;
/** How to make a secret production takes: 32 random bytes, 44 characters (about 250 bits). */
const MAKE_SECRET = "openssl rand -base64 32";
/**
 * Production refuses a secret estimated below this (`secretBits`): 36 × "a" passed the length
 * check, and `password1234` three times passed Better Auth's own estimate (issue 49, finding 3).
 */
export const MIN_SECRET_BITS = 128;

/** Why production does not start without a real card gateway. */
export const NO_CARD_GATEWAY_MESSAGE =
  "PAYMENTS_GATEWAY: production takes real card payments: set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, or PAYMENTS_GATEWAY=test-card to take test cards on purpose (no money is taken; every such order is marked TEST)";

export interface SellerDetails {
  name: string;
  address: string[];
  taxId: string | null;
  email: string | null;
  /** The registered name, printed beside the tax id and on bank transfers. */
  legalName?: string;
  /** Where a bank transfer goes (IBAN or account number, BIC or routing number); null: not set. */
  bank?: { name: string; account: string; code: string | null } | null;
}

/** The demo store's made-up bank, on its invoices on account when SELLER_BANK_* are not set. */
const DEMO_BANK = { name: "Example Bank (demo)", account: "DEMO 0000 0000 0000", code: "DEMOUS00" };

/** The demo store's made-up address, on its invoices when SELLER_ADDRESS is not set. */
const DEMO_SELLER_ADDRESS = "100 Harbour Road|Springfield, IL 62701|United States";

/** The Contact page's details (docs/returns.md): each address and the hours as lines. */
export interface ContactDetails {
  name: string;
  address: string[];
  returnsAddress: string[];
  phone: string | null;
  email: string | null;
  hours: string[];
}

/** The demo store's made-up contact details, when the settings are not set. */
const DEMO_CONTACT = {
  returnsAddress: "PartsWorks Returns, Dock 4|100 Harbour Road|Springfield, IL 62701|United States",
  phone: "+1 217 555 0142",
  hours: "Mon–Fri 8:00–18:00|Sat 9:00–13:00",
  email: "sales@partsworks.example",
};

const lines = (s: string | undefined) =>
  (s ?? "")
    .split("|")
    .map((l) => l.trim())
    .filter(Boolean);

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export interface OidcClient extends OAuthClient {
  issuer: string;
  label: string;
}

export type Config = Readonly<{
  env: "development" | "production" | "test";
  port: number;
  host: string;
  /** External PostgreSQL; when absent the app starts an embedded one in `dataDir`. */
  databaseUrl: string | undefined;
  /** PostgreSQL itself when DATABASE_URL is a transaction pooler (PgBouncer): LISTEN, migrations,
   * the mail queue and backups use it. Defaults to DATABASE_URL. */
  databaseDirectUrl: string | undefined;
  /** A streaming replica the public catalog reads from (DATABASE_READ_*; db/read-replica.ts). */
  databaseReplica: { url: string; maxLagMs: number; ownWritesMs: number } | undefined;
  dataDir: string;
  logLevel: string;
  /** `human` lines for a person, `json` lines for machines; unset: human at a terminal only. */
  logFormat: "json" | "human" | undefined;
  currency: string;
  /** Who sells: printed on every invoice (a snapshot, so a change affects only later ones). */
  seller: SellerDetails;
  /** The Contact page and the return emails' address and hours (STORE_*, RETURNS_ADDRESS). */
  contact: ContactDetails;
  /** The country the store sells from (STORE_COUNTRY): EU reverse charge is for other states. */
  storeCountry: string;
  /**
   * VIES look-ups of EU VAT numbers (VIES_URL, VIES_TIMEOUT_SECONDS; docs/tax.md "VIES"), with the
   * store's own EU VAT number as the requester (SELLER_TAX_ID, when it is one); null: off.
   */
  vies: { url: string; timeoutMs: number; requesterVatId: string | null } | null;
  seedDemoData: boolean;
  webDistDir: string;
  /** The address people use to reach the store; derived from HOST and PORT when unset. */
  publicUrl: string | undefined;
  /**
   * Which proxies may say who the client is (`X-Forwarded-For`, `X-Request-Id`): none, the nearest
   * N hops, or these addresses. Never every sender, or a client could name any IP it likes.
   */
  trustProxy: false | number | string[];
  /** Unset outside production: the server then keeps a generated one in the data folder. */
  authSecret: string | undefined;
  adminEmails: ReadonlySet<string>;
  google: OAuthClient | undefined;
  github: OAuthClient | undefined;
  oidc: OidcClient | undefined;
  /**
   * The demo: demo accounts, /dev/mailbox and (unless turned off) the demo identity provider.
   * Only outside production, and only on a loopback HOST unless DEMO=true.
   */
  demo: boolean;
  /** Run the built-in OIDC identity provider when no other social sign-in is configured. */
  demoIdentityProvider: boolean;
  /**
   * Attempts per client IP and per (address, IP) in a window; an address's mail from everywhere
   * goes in a burst, then one every `mailSpacingSeconds`.
   */
  authRateLimit: {
    perIp: number;
    perEmail: number;
    windowSeconds: number;
    mailSpacingSeconds: number;
  };
  /** Test-card payment confirmations per client IP in 10 minutes (payments/routes.ts). */
  paymentConfirmPerIp: number;
  /** Keep the public catalog's answers in memory (cleared on every product change); the list
   * totals are kept either way. */
  catalogCache: boolean;
  /** How often the catalog change listener proves it hears notifications (a self-ping). */
  catalogPingMs: number;
  /** Decide an order from what the process read and wrote before, the write checking it. */
  placementMemory: boolean;
  /**
   * Buyers choose a market (`?market=`, the `market` cookie, their delivery country): off until
   * every door prices in it (docs/pricing.md "The market chosen"); off, everyone is in the default.
   */
  marketChoice: boolean;
  orderHoldMs: number;
  /**
   * How long an order awaiting approval keeps its stock, in business days, and how many hours
   * before that window ends the company's owners are reminded: the defaults until an admin saves
   * approval settings (docs/approvals.md).
   */
  approvalDefaults: { windowBusinessDays: number; reminderHours: number };
  /** How long after shipping a customer may ask to return lines (docs/returns.md). */
  returnWindowDays: number;
  /** Days after shipping a core (the old part) may be returned for its deposit (docs/core-charges.md). */
  coreReturnWindowDays: number;
  /** What one account may hold in unpaid orders (decision 006). */
  holdLimits: HoldLimits;
  /** Quick-order resolutions (pasted lines, CSV files) per minute per client IP and per account. */
  quickOrderPerMinute: number;
  /** Catalog data files (docs/imports.md): the largest upload in bytes, the most ACES applications and PIES items. */
  imports: { maxBytes: number; maxApplications: number; maxItems: number };
  holdSweepMs: number;
  /** "Your hold is about to expire" goes this long before an unpaid order's hold ends. */
  holdWarningMs: number;
  /** The daily low-stock email to admins: whether it goes, and from which hour (UTC). */
  lowStockEmail: { enabled: boolean; hourUtc: number };
  /** Outgoing webhooks (docs/webhooks.md): may endpoints be private, loopback or link-local. */
  webhooks: { allowPrivateAddresses: boolean };
  /** Where the store's files are kept (STORAGE_DRIVER, S3_*; docs/storage.md). */
  storage: StorageSettings;
  /** How long SIGTERM waits for requests in flight before closing their connections. */
  shutdownTimeoutMs: number;
  /** A store not listening this long after it started exits 1 (0: never; start-deadline.ts). */
  startTimeoutMs: number;
  /** How long a request may wait for a pooled connection, run one statement, and sit idle
   * inside a transaction; past them PostgreSQL cancels and the transaction rolls back. */
  databaseTimeouts: DatabaseTimeouts;
  /** A request still unanswered after this long gets 503. */
  requestTimeoutMs: number;
  /**
   * A placement (an order, a checkout, an accepted quote) not committing after this long gets 503
   * and is not made: shorter than a client's usual timeout (request-deadline.ts).
   */
  orderTimeoutMs: number;
  /** API requests arriving while more queries than this wait for a pooled connection are
   * refused at once (503 "busy"): overload is shed, not queued (src/server/overload.ts). */
  dbQueueMax: number;
  /** API requests arriving while the event loop lags more than this (ms, smoothed) are refused
   * at once too (503 "busy"); 0: never for lag (src/server/overload.ts). */
  eventLoopLagMaxMs: number;
  /**
   * API requests that waited longer than this (ms) to be read, while the loop is behind with a
   * queue of them, are refused at once (503 "busy"); 0: never for that (src/server/overload.ts).
   */
  requestWaitMaxMs: number;
  /** Open connections beyond this are closed as they are accepted; 0: no cap. */
  maxConnections: number;
  /**
   * Sockets listening on the port (SO_REUSEPORT, Node.js 22.12+); unset: 48 where Node can,
   * else one (src/server/listeners.ts).
   */
  listenSockets: number | undefined;
  /**
   * Placements of one product that may hold a pooled connection at once; the others wait in
   * this process, for at most the lock timeout (docs/hot-row.md).
   */
  orderGatePerProduct: number;
  /** How long a pre-rendered page waits for its products before using the last it read. */
  pageDataWaitMs: number;
  /** How often the embedded PostgreSQL is restarted after it exits, before the store gives up. */
  embeddedPostgresRestarts: number;
  /**
   * Where mail goes: SMTP_URL, else (outside production) a local SMTP server the app starts and
   * shows at /dev/mailbox; in production without SMTP_URL mail is queued but not sent.
   */
  mail: {
    smtpUrl: string | undefined;
    from: string;
    retryDelaySeconds: number;
    retryLimit: number;
  };
  /**
   * The gateway that takes card payments: Stripe when its keys are set, else the test-card
   * gateway, which production takes only when asked for by name (PAYMENTS_GATEWAY=test-card).
   */
  paymentsGateway: "stripe" | "test-card";
  /** Set when the Stripe gateway is chosen. */
  stripe:
    { secretKey: string; publishableKey: string; webhookSecret: string | undefined } | undefined;
  /** Serve Swagger UI and the OpenAPI document at /api/docs (it lists the admin routes). */
  apiDocs: boolean;
  /** The bearer token GET /metrics asks for; unset: no /metrics at all (404). */
  metricsToken: string | undefined;
  /** Admin routes answer 403 to an admin without two-factor authentication. */
  adminTwoFactorRequired: boolean;
  /** How long a session may last from sign-in, in seconds, however often it is used. */
  sessionAbsoluteSeconds: number;
}>;

export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
  idleInTransactionMs: number;
  /** How long a statement waits for a row or table lock before it gives up (503 "busy"). */
  lockMs: number;
}

/**
 * What one account may hold in unpaid orders (decision 006), so nobody can take the stock off
 * sale without paying: a share of each product's stock on sale, a total value, and a number of
 * placements per minute.
 */
export interface HoldLimits {
  /** The share (0–1] of a product's stock on sale one unpaid order line may hold... */
  maxShare: number;
  /** ...though a line of up to this many units is never held back by the share. */
  freeUnits: number;
  /** The value, in cents, of all of one account's unpaid orders together. */
  maxValueCents: number;
  /** Orders one account may place per minute. */
  perMinute: number;
  /**
   * How long an unpaid order of a new customer holds its stock: an account that has never paid
   * for an order and belongs to no company (checkout/read.ts `trustedSql`), verified or not.
   */
  newCustomerHoldMs: number;
  /** The share of a product's stock all new customers' unpaid orders may hold together. */
  newCustomerShare: number;
}

export class ConfigError extends Error {}

/** Parses the environment once. The only place in the server that reads `process.env`. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const e = parsed.data;
  const problems: string[] = [];
  const pair = (name: string, id?: string, secret?: string): OAuthClient | undefined => {
    if (!id && !secret) return undefined;
    if (!id || !secret) {
      problems.push(`  ${name}_CLIENT_ID and ${name}_CLIENT_SECRET: set both or neither`);
      return undefined;
    }
    return { clientId: id, clientSecret: secret };
  };
  const google = pair("GOOGLE", e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET);
  const github = pair("GITHUB", e.GITHUB_CLIENT_ID, e.GITHUB_CLIENT_SECRET);
  const oidcClient = pair("OIDC", e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET);
  if (Boolean(e.OIDC_ISSUER) !== Boolean(oidcClient)) {
    problems.push("  OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: set all three or none");
  }
  if (e.NODE_ENV === "production" && (e.BETTER_AUTH_SECRET ?? "").length < MIN_SECRET_LENGTH) {
    problems.push(
      `  BETTER_AUTH_SECRET: required in production, at least ${MIN_SECRET_LENGTH} random characters (make one with \`${MAKE_SECRET}\`)`,
    );
  } else if (e.NODE_ENV === "production" && secretBits(e.BETTER_AUTH_SECRET!) < MIN_SECRET_BITS) {
    problems.push(
      `  BETTER_AUTH_SECRET: too easy to guess (about ${Math.floor(secretBits(e.BETTER_AUTH_SECRET!))} bits: repeated parts and few different characters count little; at least ${MIN_SECRET_BITS} are needed); make a random one with \`${MAKE_SECRET}\``,
    );
  }
  if (Boolean(e.SELLER_BANK_NAME) !== Boolean(e.SELLER_BANK_ACCOUNT)) {
    problems.push("  SELLER_BANK_NAME and SELLER_BANK_ACCOUNT: set both or neither");
  }
  problems.push(...storageProblems(e));
  // The approval form shows these until an admin saves it: it must be able to save them unchanged.
  const approvalDefaults = {
    windowBusinessDays: e.APPROVAL_WINDOW_BUSINESS_DAYS,
    reminderHours: e.APPROVAL_REMINDER_HOURS,
  };
  if (!approvalSettingsSchema.safeParse(approvalDefaults).success) {
    problems.push(
      "  APPROVAL_REMINDER_HOURS: must be what the approval settings form takes: whole hours, fewer than the window's (APPROVAL_WINDOW_BUSINESS_DAYS × 24)",
    );
  }
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) {
    problems.push("  DATABASE_DIRECT_URL: only with DATABASE_URL (the pooler it bypasses)");
  }
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    problems.push("  DATABASE_READ_URL: only with DATABASE_URL (the primary it replicates)");
  }
  const stripeKeys = Boolean(e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY);
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_PUBLISHABLE_KEY)) {
    problems.push("  STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY: set both or neither");
  } else if (e.PAYMENTS_GATEWAY === "stripe" && !stripeKeys) {
    problems.push("  PAYMENTS_GATEWAY=stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY");
  } else if (e.NODE_ENV === "production" && !e.PAYMENTS_GATEWAY && !stripeKeys) {
    problems.push(`  ${NO_CARD_GATEWAY_MESSAGE}`);
  }
  const demo =
    e.NODE_ENV !== "production" &&
    (e.DEMO === "true" || (e.DEMO === undefined && isLoopbackHost(e.HOST)));
  const paymentsGateway = e.PAYMENTS_GATEWAY ?? (stripeKeys ? "stripe" : "test-card");
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  return Object.freeze({
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    databaseReplica: e.DATABASE_READ_URL
      ? {
          url: e.DATABASE_READ_URL,
          maxLagMs: Math.round(e.DATABASE_READ_MAX_LAG_SECONDS * 1000),
          ownWritesMs: Math.round(e.DATABASE_READ_OWN_WRITES_SECONDS * 1000),
        }
      : undefined,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    currency: e.CURRENCY,
    seller: {
      name: e.SELLER_NAME,
      address: (e.SELLER_ADDRESS ?? (demo ? DEMO_SELLER_ADDRESS : ""))
        .split("|")
        .map((l) => l.trim())
        .filter(Boolean),
      taxId: e.SELLER_TAX_ID || null,
      email: e.SELLER_EMAIL || null,
      legalName: e.SELLER_LEGAL_NAME || e.SELLER_NAME,
      bank:
        e.SELLER_BANK_NAME && e.SELLER_BANK_ACCOUNT
          ? {
              name: e.SELLER_BANK_NAME,
              account: e.SELLER_BANK_ACCOUNT,
              code: e.SELLER_BANK_CODE || null,
            }
          : demo
            ? DEMO_BANK
            : null,
    },
    contact: contactOf(e, demo),
    storeCountry: e.STORE_COUNTRY,
    vies: viesOf(e),
    seedDemoData: e.SEED_DEMO_DATA ?? e.NODE_ENV !== "production",
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ""),
    trustProxy: e.TRUST_PROXY,
    authSecret: e.BETTER_AUTH_SECRET || undefined,
    adminEmails: new Set(
      e.ADMIN_EMAILS.split(",")
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean),
    ),
    google,
    github,
    oidc:
      e.OIDC_ISSUER && oidcClient
        ? { issuer: e.OIDC_ISSUER, label: e.OIDC_LABEL, ...oidcClient }
        : undefined,
    demo,
    demoIdentityProvider: e.DEMO_IDENTITY_PROVIDER && demo,
    authRateLimit: {
      perIp: e.AUTH_RATE_LIMIT_PER_IP,
      perEmail: e.AUTH_RATE_LIMIT_PER_EMAIL,
      windowSeconds: 15 * 60,
      mailSpacingSeconds: e.AUTH_MAIL_SPACING_SECONDS,
    },
    paymentConfirmPerIp: e.PAYMENT_CONFIRM_LIMIT_PER_IP,
    catalogCache: e.CATALOG_CACHE,
    catalogPingMs: Math.round(e.CATALOG_PING_SECONDS * 1000),
    placementMemory: e.PLACEMENT_MEMORY,
    marketChoice: e.MARKET_CHOICE,
    orderHoldMs: e.ORDER_HOLD_HOURS * 3_600_000,
    approvalDefaults,
    returnWindowDays: e.RETURN_WINDOW_DAYS,
    coreReturnWindowDays: e.CORE_RETURN_WINDOW_DAYS,
    holdSweepMs: e.HOLD_SWEEP_SECONDS * 1000,
    holdWarningMs: Math.round(e.HOLD_WARNING_HOURS * 3_600_000),
    holdLimits: {
      maxShare: e.HOLD_MAX_SHARE,
      freeUnits: e.HOLD_FREE_UNITS,
      maxValueCents: Math.round(e.HOLD_MAX_VALUE * 100),
      perMinute: e.ORDERS_PER_MINUTE,
      newCustomerHoldMs: Math.round(e.HOLD_NEW_CUSTOMER_MINUTES * 60_000),
      newCustomerShare: e.HOLD_NEW_CUSTOMER_SHARE,
    },
    quickOrderPerMinute: e.QUICK_ORDER_PER_MINUTE,
    imports: {
      maxBytes: e.IMPORT_MAX_FILE_MIB * 1024 * 1024,
      maxApplications: e.IMPORT_MAX_APPLICATIONS,
      maxItems: e.IMPORT_MAX_ITEMS,
    },
    lowStockEmail: {
      enabled: e.LOW_STOCK_EMAIL ? e.LOW_STOCK_EMAIL === "true" : !demo,
      hourUtc: e.LOW_STOCK_EMAIL_HOUR,
    },
    storage: storageSettings(e),
    webhooks: {
      allowPrivateAddresses: e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES
        ? e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === "true"
        : e.NODE_ENV !== "production",
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    startTimeoutMs: Math.round(e.START_TIMEOUT_SECONDS * 1000),
    databaseTimeouts: {
      connectMs: Math.round(e.DB_CONNECT_TIMEOUT_SECONDS * 1000),
      statementMs: Math.round(e.DB_STATEMENT_TIMEOUT_SECONDS * 1000),
      idleInTransactionMs: Math.round(e.DB_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS * 1000),
      lockMs: Math.round(e.DB_LOCK_TIMEOUT_SECONDS * 1000),
    },
    requestTimeoutMs: Math.round(e.REQUEST_TIMEOUT_SECONDS * 1000),
    orderTimeoutMs: Math.round(e.ORDER_TIMEOUT_SECONDS * 1000),
    dbQueueMax: e.DB_QUEUE_MAX,
    eventLoopLagMaxMs: e.EVENT_LOOP_LAG_MAX_MS,
    requestWaitMaxMs: e.REQUEST_WAIT_MAX_MS,
    maxConnections: e.MAX_CONNECTIONS,
    listenSockets: e.LISTEN_SOCKETS,
    orderGatePerProduct: e.ORDER_GATE_PER_PRODUCT,
    pageDataWaitMs: e.PAGE_DATA_WAIT_MS,
    embeddedPostgresRestarts: e.EMBEDDED_POSTGRES_RESTARTS,
    mail: {
      smtpUrl: e.SMTP_URL || undefined,
      from: e.MAIL_FROM,
      retryDelaySeconds: e.MAIL_RETRY_DELAY_SECONDS,
      retryLimit: e.MAIL_RETRY_LIMIT,
    },
    paymentsGateway,
    stripe:
      paymentsGateway === "stripe" && e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          }
        : undefined,
    metricsToken: e.METRICS_TOKEN || undefined,
    apiDocs: e.API_DOCS ? e.API_DOCS === "true" : e.NODE_ENV !== "production",
    adminTwoFactorRequired: e.ADMIN_2FA_REQUIRED
      ? e.ADMIN_2FA_REQUIRED === "true"
      : e.NODE_ENV === "production",
    sessionAbsoluteSeconds: Math.round(e.SESSION_ABSOLUTE_HOURS * 3600),
  });
}

/** Whether HOST is a loopback address: only this machine can reach the store. */
/** The Contact page's details: the settings, else the seller's, else (in the demo) made-up ones. */
function contactOf(e: z.infer<typeof envSchema>, demo: boolean): ContactDetails {
  const address = lines(e.STORE_ADDRESS ?? e.SELLER_ADDRESS ?? (demo ? DEMO_SELLER_ADDRESS : ""));
  const returnsAddress = lines(e.RETURNS_ADDRESS ?? (demo ? DEMO_CONTACT.returnsAddress : ""));
  return {
    name: e.SELLER_NAME,
    address,
    returnsAddress: returnsAddress.length > 0 ? returnsAddress : address,
    phone: e.STORE_PHONE || (demo ? DEMO_CONTACT.phone : null),
    email: e.STORE_EMAIL || e.SELLER_EMAIL || (demo ? DEMO_CONTACT.email : null),
    hours: lines(e.STORE_HOURS ?? (demo ? DEMO_CONTACT.hours : "")),
  };
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * About how many bits of guessing a secret is worth, estimated honestly enough for a start-up
 * check: each character costs log2(the number of different characters in the secret), but a
 * stretch that repeats an earlier part (3 characters or more) costs only what naming that copy
 * costs (where it starts and how long it is). `password1234` three times is one `password1234`
 * and a copy (about 50 bits), not 36 characters' worth (124); `openssl rand -base64 32` is about
 * 250.
 */
export function secretBits(secret: string): number {
  const chars = [...secret];
  const different = new Set(chars).size;
  if (different === 0) return 0;
  const perCharacter = Math.log2(Math.max(different, 2));
  let bits = 0;
  let i = 0;
  while (i < chars.length) {
    let longest = 0;
    for (let from = 0; from < i; from++) {
      let n = 0;
      // A copy may run into itself ("abab…" is "ab" and one long copy), as in LZ77.
      while (i + n < chars.length && chars[from + n] === chars[i + n]) n++;
      longest = Math.max(longest, n);
    }
    if (longest >= 3) {
      bits += Math.log2(i) + Math.log2(longest);
      i += longest;
    } else {
      bits += perCharacter;
      i += 1;
    }
  }
  return bits;
}

/** VIES_URL: the Commission's REST API unless `off` (off by default under NODE_ENV=test). */
function viesOf(e: z.infer<typeof envSchema>): Config["vies"] {
  const url = e.VIES_URL ?? (e.NODE_ENV === "test" ? "off" : VIES_DEFAULT_URL);
  if (url === "off") return null;
  const seller = e.SELLER_TAX_ID ? checkEuVatId(e.SELLER_TAX_ID) : null;
  return {
    url: url.replace(/\/+$/, ""),
    timeoutMs: Math.round(e.VIES_TIMEOUT_SECONDS * 1000),
    requesterVatId: seller?.ok ? seller.vatId : null,
  };
}

/** What is wrong with the storage settings (STORAGE_DRIVER, S3_*), one line each. */
function storageProblems(e: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push("  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither");
  }
  if (e.STORAGE_DRIVER !== "s3") return problems;
  if (!e.S3_BUCKET) problems.push("  STORAGE_DRIVER=s3 needs S3_BUCKET");
  // A failed upload is followed by the removal of what it may have left: two bounded calls.
  if (2 * e.S3_TIMEOUT_SECONDS >= e.REQUEST_TIMEOUT_SECONDS) {
    problems.push(
      "  S3_TIMEOUT_SECONDS: must be less than half of REQUEST_TIMEOUT_SECONDS, so that a bucket away is answered 503 within the request's deadline",
    );
  }
  return problems;
}

function storageSettings(e: z.infer<typeof envSchema>): StorageSettings {
  if (e.STORAGE_DRIVER === "local") return { driver: "local" };
  return {
    driver: "s3",
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    timeoutMs: Math.round(e.S3_TIMEOUT_SECONDS * 1000),
  };
}
