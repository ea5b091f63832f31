import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, test } from "vitest";
import {
  ConfigError,
  loadConfig,
  MIN_SECRET_BITS,
  NO_CARD_GATEWAY_MESSAGE,
  secretBits,
} from "./config";

/** `openssl rand -base64 32`: about 250 bits, as production asks. */
const STRONG_SECRET = "jZHFnlqg0V6p1xgO8c0CLlYMsrdn3wBy4RnVkrNDWI0=";

test("defaults give the demo set-up on port 3000 with the embedded database", () => {
  const c = loadConfig({});
  expect(c).toMatchObject({
    env: "development",
    port: 3000,
    host: "localhost",
    databaseUrl: undefined,
    dataDir: path.resolve("data"),
    currency: "USD",
    seedDemoData: true,
    demoIdentityProvider: true,
  });
});

test("production refuses to start without a strong BETTER_AUTH_SECRET", () => {
  expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(ConfigError);
  expect(() => loadConfig({ NODE_ENV: "production", BETTER_AUTH_SECRET: "short" })).toThrow(
    /BETTER_AUTH_SECRET: required in production/,
  );
  const c = loadConfig({
    NODE_ENV: "production",
    BETTER_AUTH_SECRET: STRONG_SECRET,
    PAYMENTS_GATEWAY: "test-card",
  });
  expect(c.authSecret).toBe(STRONG_SECRET);
  // The demo identity provider never runs in production.
  expect(c.demoIdentityProvider).toBe(false);
});

test("demo data is seeded by default, but not in production unless asked for", () => {
  const secret = { BETTER_AUTH_SECRET: STRONG_SECRET, PAYMENTS_GATEWAY: "test-card" };
  expect(loadConfig({}).seedDemoData).toBe(true);
  expect(loadConfig({ SEED_DEMO_DATA: "false" }).seedDemoData).toBe(false);
  expect(loadConfig({ NODE_ENV: "production", ...secret }).seedDemoData).toBe(false);
  expect(
    loadConfig({ NODE_ENV: "production", SEED_DEMO_DATA: "true", ...secret }).seedDemoData,
  ).toBe(true);
});

test("social providers need their id and secret together", () => {
  expect(() => loadConfig({ GOOGLE_CLIENT_ID: "id-only" })).toThrow(
    /GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither/,
  );
  expect(() => loadConfig({ OIDC_ISSUER: "https://id.example.com" })).toThrow(
    /OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET/,
  );
  const c = loadConfig({
    OIDC_ISSUER: "https://id.example.com",
    OIDC_CLIENT_ID: "store",
    OIDC_CLIENT_SECRET: "s3cret",
    GITHUB_CLIENT_ID: "gh",
    GITHUB_CLIENT_SECRET: "gh-secret",
  });
  expect(c.oidc).toEqual({
    issuer: "https://id.example.com",
    clientId: "store",
    clientSecret: "s3cret",
    label: "Single sign-on",
  });
  expect(c.github).toEqual({ clientId: "gh", clientSecret: "gh-secret" });
});

test("ADMIN_EMAILS is a comma-separated, case-insensitive list", () => {
  const c = loadConfig({ ADMIN_EMAILS: " Boss@Example.com ,ops@example.com,," });
  expect([...c.adminEmails]).toEqual(["boss@example.com", "ops@example.com"]);
});

test("TRUST_PROXY is off, a hop count, or a list of proxy addresses — never 'everyone'", () => {
  expect(loadConfig({}).trustProxy).toBe(false);
  expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
  expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(1);
  expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
  expect(loadConfig({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8" }).trustProxy).toEqual([
    "127.0.0.1",
    "10.0.0.0/8",
  ]);
  expect(() => loadConfig({ TRUST_PROXY: "yes please" })).toThrow(ConfigError);
});

test("database and request timeouts have defaults and take seconds", () => {
  expect(loadConfig({})).toMatchObject({
    databaseTimeouts: {
      connectMs: 5_000,
      statementMs: 10_000,
      idleInTransactionMs: 30_000,
      lockMs: 2_000,
    },
    requestTimeoutMs: 30_000,
    embeddedPostgresRestarts: 5,
  });
  const c = loadConfig({
    DB_CONNECT_TIMEOUT_SECONDS: "0.5",
    DB_STATEMENT_TIMEOUT_SECONDS: "1",
    DB_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: "2",
    DB_LOCK_TIMEOUT_SECONDS: "0.25",
    REQUEST_TIMEOUT_SECONDS: "3",
    EMBEDDED_POSTGRES_RESTARTS: "0",
  });
  expect(c.databaseTimeouts).toEqual({
    connectMs: 500,
    statementMs: 1_000,
    idleInTransactionMs: 2_000,
    lockMs: 250,
  });
  expect(c.requestTimeoutMs).toBe(3_000);
  expect(c.embeddedPostgresRestarts).toBe(0);
  expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_SECONDS: "0" })).toThrow(ConfigError);
});

test("mail: SMTP_URL must be an smtp:// or smtps:// address; unset means the local demo server", () => {
  expect(loadConfig({}).mail).toEqual({
    smtpUrl: undefined,
    from: "PartsWorks <no-reply@partsworks.example>",
    retryDelaySeconds: 30,
    retryLimit: 12,
  });
  expect(loadConfig({ SMTP_URL: "" }).mail.smtpUrl).toBeUndefined();
  expect(loadConfig({ SMTP_URL: "smtps://u:p@mail.example.com:465" }).mail.smtpUrl).toBe(
    "smtps://u:p@mail.example.com:465",
  );
  expect(() => loadConfig({ SMTP_URL: "http://mail.example.com" })).toThrow(
    /SMTP_URL: must be an smtp/,
  );
});

test("ADMIN_2FA_REQUIRED is on in production and off in the demo unless set", () => {
  const secret = { BETTER_AUTH_SECRET: STRONG_SECRET, PAYMENTS_GATEWAY: "test-card" };
  expect(loadConfig({}).adminTwoFactorRequired).toBe(false);
  expect(loadConfig({ NODE_ENV: "production", ...secret }).adminTwoFactorRequired).toBe(true);
  expect(
    loadConfig({ NODE_ENV: "production", ADMIN_2FA_REQUIRED: "false", ...secret })
      .adminTwoFactorRequired,
  ).toBe(false);
  expect(loadConfig({ ADMIN_2FA_REQUIRED: "true" }).adminTwoFactorRequired).toBe(true);
  expect(() => loadConfig({ ADMIN_2FA_REQUIRED: "yes" })).toThrow(ConfigError);
});

test("production takes test cards only when asked for by name", () => {
  const prod = { NODE_ENV: "production", BETTER_AUTH_SECRET: STRONG_SECRET };
  expect(() => loadConfig(prod)).toThrow(NO_CARD_GATEWAY_MESSAGE);
  expect(loadConfig({ ...prod, PAYMENTS_GATEWAY: "test-card" }).paymentsGateway).toBe("test-card");
  const stripe = { STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" };
  const live = loadConfig({ ...prod, ...stripe });
  expect(live.paymentsGateway).toBe("stripe");
  expect(live.stripe?.secretKey).toBe("sk_test_1");
  // Asked for by name, the test gateway wins over keys that are set; Stripe needs its keys.
  const asked = loadConfig({ ...prod, ...stripe, PAYMENTS_GATEWAY: "test-card" });
  expect([asked.paymentsGateway, asked.stripe]).toEqual(["test-card", undefined]);
  expect(() => loadConfig({ ...prod, PAYMENTS_GATEWAY: "stripe" })).toThrow(
    /PAYMENTS_GATEWAY=stripe needs STRIPE_SECRET_KEY/,
  );
  // Outside production the test-card gateway stays the default.
  expect(loadConfig({}).paymentsGateway).toBe("test-card");
});

test("the demo runs only on a loopback HOST, or when DEMO=true, and never in production", () => {
  expect(loadConfig({}).demo).toBe(true);
  expect(loadConfig({ HOST: "127.0.0.1" }).demo).toBe(true);
  expect(loadConfig({ HOST: "::1" }).demo).toBe(true);
  // The usual container set-up: every interface, no NODE_ENV. No admin/admin123, no mailbox.
  const open = loadConfig({ HOST: "0.0.0.0" });
  expect([open.demo, open.demoIdentityProvider]).toEqual([false, false]);
  expect(loadConfig({ HOST: "0.0.0.0", DEMO: "true" }).demo).toBe(true);
  expect(loadConfig({ DEMO: "false" }).demo).toBe(false);
  expect(
    loadConfig({
      NODE_ENV: "production",
      DEMO: "true",
      BETTER_AUTH_SECRET: STRONG_SECRET,
      PAYMENTS_GATEWAY: "test-card",
    }).demo,
  ).toBe(false);
});

test("production refuses a long secret that is easy to guess", () => {
  const prod = { NODE_ENV: "production", PAYMENTS_GATEWAY: "test-card" };
  expect(() => loadConfig({ ...prod, BETTER_AUTH_SECRET: "a".repeat(36) })).toThrow(
    /BETTER_AUTH_SECRET: too easy to guess/,
  );
  expect(() => loadConfig({ ...prod, BETTER_AUTH_SECRET: "abab".repeat(10) })).toThrow(
    /too easy to guess/,
  );
  // openssl rand -hex 32: 64 characters of 16 kinds, 256 bits.
  const hex = "3f9c0a1b7d2e4f6081a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7a8";
  expect(loadConfig({ ...prod, BETTER_AUTH_SECRET: hex }).authSecret).toBe(hex);
  // Outside production the demo's generated secret is used; a weak one set by hand only warns.
  expect(loadConfig({ BETTER_AUTH_SECRET: "a".repeat(36) }).authSecret).toBe("a".repeat(36));
});

test("production refuses a secret made of a repeated part, saying how to make one (issue 49, finding 3)", () => {
  const prod = { NODE_ENV: "production", PAYMENTS_GATEWAY: "test-card" };
  // Twelve characters of eleven kinds three times: 124 bits by length × different characters,
  // which production took without a word.
  for (const weak of [
    "password1234password1234password1234",
    "password1234".repeat(5),
    "0123456789abcdef0123456789abcdef",
  ]) {
    expect(secretBits(weak), weak).toBeLessThan(MIN_SECRET_BITS);
    expect(() => loadConfig({ ...prod, BETTER_AUTH_SECRET: weak }), weak).toThrow(
      /BETTER_AUTH_SECRET: too easy to guess .*make a random one with `openssl rand -base64 32`/,
    );
  }
  // What the message says to run, and the hex one of the operations guide, are taken.
  for (const made of [randomBytes(32).toString("base64"), randomBytes(32).toString("hex")]) {
    expect(loadConfig({ ...prod, BETTER_AUTH_SECRET: made }).authSecret).toBe(made);
  }
});

test("a read replica: only beside DATABASE_URL, with its lag bound and own-writes window", () => {
  expect(loadConfig({}).databaseReplica).toBeUndefined();
  expect(() => loadConfig({ DATABASE_READ_URL: "postgres://r/store" })).toThrow(
    /DATABASE_READ_URL: only with DATABASE_URL/,
  );
  const c = loadConfig({
    DATABASE_URL: "postgres://p/store",
    DATABASE_READ_URL: "postgres://r/store",
    DATABASE_READ_MAX_LAG_SECONDS: "2.5",
  });
  expect(c.databaseReplica).toEqual({
    url: "postgres://r/store",
    maxLagMs: 2500,
    ownWritesMs: 10_000,
  });
});
