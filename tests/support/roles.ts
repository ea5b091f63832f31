import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { signUp, type TestAccount } from "./accounts";
import { requestsAs, type Method } from "./requests";
import type { TestApp } from "./test-app";
import { companyWithBuyerAndViewer, createCompany, joinCompany, type Member } from "./trade";

/** One row of a role table: a request, run as each role, and the status each role should get. */
export interface RoleRow<R extends string> {
  what: string;
  run: (r: R) => Promise<number>;
  expect: Record<R, number>;
}

/**
 * Runs every row as every role in turn; answers what each got and what each should have got as
 * lines ("<what> as <role>: <status>"), for a test to compare whole: one failure lists every miss.
 */
export async function runRoleTable<R extends string>(
  rows: RoleRow<R>[],
  roles: R[],
): Promise<{ got: string[]; want: string[] }> {
  const got: string[] = [];
  const want: string[] = [];
  for (const row of rows) {
    for (const r of roles) {
      got.push(`${row.what} as ${r}: ${await row.run(r)}`);
      want.push(`${row.what} as ${r}: ${row.expect[r]}`);
    }
  }
  return { got, want };
}

/**
 * The trade roles beside the authorisation matrix's four: company A's owner, buyer and viewer, a
 * member of company B (named `Other`, e.g. "otherBuyer"), a customer in no company, an admin and
 * a visitor ("anonymous").
 */
export type TradeRole<Other extends string> =
  "anonymous" | "noCompany" | "owner" | "buyer" | "viewer" | Other | "admin";

/** The trade roles in the order a role table runs them. */
const tradeRoles = <Other extends string>(other: Other): TradeRole<Other>[] => [
  "anonymous",
  "noCompany",
  "owner",
  "buyer",
  "viewer",
  other,
  "admin",
];

/** Each signed-in trade role's account, with companies A and B. */
export type TradeAccounts<Other extends string> = Record<
  "owner" | "buyer" | "viewer" | Other,
  Member
> & {
  noCompany: TestAccount;
  admin: TestAccount;
  companyA: Awaited<ReturnType<typeof companyWithBuyerAndViewer>>;
  companyB: { id: string; name: string };
};

/**
 * The trade roles' accounts beside `admin`: a customer in no company, company A with its owner,
 * buyer and viewer, and company B with `other` joined as `otherRole`; each company made with
 * its `fields` (a price list).
 */
async function tradeAccounts<Other extends string>(
  app: FastifyInstance,
  admin: TestAccount,
  other: Other,
  otherRole: "owner" | "buyer",
  fields: { a?: { priceListId?: string }; b?: { priceListId?: string } } = {},
): Promise<TradeAccounts<Other>> {
  const noCompany = await signUp(app);
  const companyA = await companyWithBuyerAndViewer(app, admin, fields.a);
  const companyB = await createCompany(app, admin, fields.b);
  const member = await joinCompany(app, admin, companyB.id, otherRole);
  const { owner, buyer, viewer } = companyA;
  return {
    admin,
    noCompany,
    owner,
    buyer,
    viewer,
    companyA,
    companyB,
    [other]: member,
  } as TradeAccounts<Other>;
}

type TradeCompanyFields = Parameters<typeof tradeAccounts>[4];

/**
 * A trade role table's store, made before the file's tests and closed after them (vitest's
 * `beforeAll` and `afterAll`): `start` makes the app with its admin, `companies` (run first, when
 * given) answers what companies A and B are made with. Tests read `store.t` and `store.who`
 * (each role's account, companies A and B) and request as a role with `store.call`.
 */
export function tradeRoleStore<Other extends string>(setup: {
  other: Other;
  otherRole: "owner" | "buyer";
  start: () => Promise<{ t: TestApp; admin: TestAccount }>;
  companies?: (t: TestApp, admin: TestAccount) => Promise<TradeCompanyFields>;
}) {
  const request = requestsAs(() => store.t.app);
  const store = {
    roles: tradeRoles(setup.other),
    t: undefined as unknown as TestApp,
    who: undefined as unknown as TradeAccounts<Other>,
    call: (role: TradeRole<Other>, method: Method, url: string, payload?: object) =>
      request(role === "anonymous" ? null : store.who[role], method, url, payload),
  };
  beforeAll(async () => {
    const { t, admin } = await setup.start();
    store.t = t;
    const fields = await setup.companies?.(t, admin);
    store.who = await tradeAccounts(t.app, admin, setup.other, setup.otherRole, fields);
  });
  afterAll(() => store.t?.close());
  return store;
}
