import { afterAll, beforeAll } from "vitest";
import { accountFields, signUp, signUpAdmin, type TestAccount } from "./accounts";
import { shipsToTestAddress } from "./destination";
import { requestsAs } from "./requests";
import { createTestApp, type TestApp } from "./test-app";

/** The admin of a test app: the address its ADMIN_EMAILS names, and a name when a test reads it. */
export type AdminSignUp = string | { email: string; name: string };

/**
 * The real app (createTestApp) whose ADMIN_EMAILS is `admin`, with that admin signed up and
 * signed in (accounts.ts signUpAdmin): where most API tests start. `env` and `extra` go to
 * createTestApp as they are.
 */
export async function testAppWithAdmin(
  admin: AdminSignUp,
  env: Record<string, string> = {},
  extra: Parameters<typeof createTestApp>[1] = {},
): Promise<{ t: TestApp; admin: TestAccount }> {
  const account = typeof admin === "string" ? { email: admin } : admin;
  const t = await createTestApp({ ADMIN_EMAILS: account.email, ...env }, extra);
  return { t, admin: await signUpAdmin(t, account) };
}

/** testAppWithAdmin on a store that ships to the test address (destination.ts shipsToTestAddress). */
export const shippingAppWithAdmin = (admin: AdminSignUp, env: Record<string, string> = {}) =>
  testAppWithAdmin(admin, env, { seed: shipsToTestAddress });

/** What appForTests hands back besides the customers. */
export interface AppForTests {
  t: TestApp;
  call: ReturnType<typeof requestsAs>;
}

/** What storeForTests hands back besides the customers. */
export interface StoreForTests extends AppForTests {
  admin: TestAccount;
}

/** A customer of appForTests or storeForTests: `signUp`'s fields with its own over them, or an address. */
type CustomerSignUp = string | Partial<Omit<TestAccount, "cookie">>;

interface AppOptions<Name extends string> {
  /** Seeds the store with `shipsToTestAddress`'s zone (destination.ts), as shippingAppWithAdmin. */
  shipsToTestAddress?: boolean;
  customers?: Record<Name, CustomerSignUp>;
  env?: Record<string, string>;
  extra?: Parameters<typeof createTestApp>[1];
}

/**
 * A test file's app without an admin: storeForTests for a file that needs none. Registers a
 * `beforeAll` that builds the real app (createTestApp with `env` and `extra`) and signs up each of
 * `customers`, and an `afterAll` that closes it; hands back `t`, `call` and each customer by name.
 *
 * ```ts
 * const { t, call, customer } = appForTests({ env: { SESSION_ABSOLUTE_HOURS: "2" }, customers: { customer: {} } });
 * ```
 */
export function appForTests<Name extends string = never>(
  options: AppOptions<Name> = {},
): AppForTests & Record<Name, TestAccount> {
  return testFileApp(options, null);
}

/**
 * A test file's store, as most API tests start: registers a `beforeAll` that builds the real app
 * (testAppWithAdmin: `admin` signed in as its admin), then signs up each of `customers` (plain
 * sign-ups, `signUp`'s fields with theirs over them; an address alone for its email), and an
 * `afterAll` that closes it. Call it at the top of the file (or of a `describe`), before hooks
 * that use it.
 *
 * Hands back `t`, the app (its `app` and `database` are there from the `beforeAll` on), `call`,
 * its request function (requests.ts requestsAs: `call(who, method, url, body)`), `admin` and each
 * customer by its name. An account's email, password and name are set at once; its
 * session cookie from the `beforeAll` on.
 *
 * ```ts
 * const { t, call, admin, customer, other } = storeForTests({
 *   admin: "orders-admin@example.com",
 *   shipsToTestAddress: true,
 *   customers: { customer: { name: "Casey" }, other: "olly@example.com" },
 * });
 * ```
 */
export function storeForTests<Name extends string = never>(
  options: AppOptions<Name> & { admin: AdminSignUp },
): StoreForTests & Record<Name, TestAccount> {
  const admin = accountOf(
    typeof options.admin === "string" ? { email: options.admin } : options.admin,
  );
  return { ...testFileApp(options, admin), admin };
}

/** An account whose fields are set now and whose session cookie the `beforeAll` fills in. */
const accountOf = (fields: Partial<Omit<TestAccount, "cookie">>): TestAccount => ({
  ...accountFields(fields),
  cookie: "",
});

/** appForTests, with `admin` (if any) as the app's ADMIN_EMAILS, signed up and signed in. */
function testFileApp<Name extends string>(
  options: AppOptions<Name>,
  admin: TestAccount | null,
): AppForTests & Record<Name, TestAccount> {
  let built: TestApp | undefined;
  const started = () => {
    if (!built)
      throw new Error(
        "appForTests and storeForTests build the app in beforeAll: use it in a hook or test",
      );
    return built;
  };
  const t: TestApp = {
    get app() {
      return started().app;
    },
    get database() {
      return started().database;
    },
    async close() {
      await built?.close();
      built = undefined;
    },
  };
  const customers = Object.fromEntries(
    Object.entries<CustomerSignUp>(options.customers ?? {}).map(([name, fields]) => [
      name,
      accountOf(typeof fields === "string" ? { email: fields } : fields),
    ]),
  ) as Record<Name, TestAccount>;
  const fieldsOf = ({ email, password, name }: TestAccount) => ({ email, password, name });

  beforeAll(async () => {
    const { seed, ...extra } = options.extra ?? {};
    built = await createTestApp(
      { ...(admin ? { ADMIN_EMAILS: admin.email } : {}), ...options.env },
      {
        ...extra,
        async seed(db) {
          if (options.shipsToTestAddress) await shipsToTestAddress(db);
          await seed?.(db);
        },
      },
    );
    if (admin) admin.cookie = (await signUpAdmin(built, fieldsOf(admin))).cookie;
    for (const account of Object.values<TestAccount>(customers)) {
      account.cookie = (await signUp(built.app, fieldsOf(account))).cookie;
    }
  });
  afterAll(() => t.close());

  return { t, call: requestsAs(() => t.app), ...customers };
}
