import { afterAll, beforeAll, expect, test } from "vitest";
import { signUp, signUpAdmin, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct, insertVehicle } from "../../../tests/support/factories";
import { watchQueries } from "../../../tests/support/query-spy";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";
import { createCompany, createPriceList, joinCompany } from "../../../tests/support/trade";
import { AUSTIN_ADDRESS } from "../../../tests/support/destination";
import { PLACEMENT_READS } from "./read";

// An order may be decided on facts read without the customer's lock, or remembered from an
// earlier read (docs/decisions/011-checkout-workflow.md): it stays right only while every table
// the read takes facts from is kept by its version, the customer's revision or a fresh read.
// A price rule, charge or table added to the read without a trigger fails here, not in an order
// decided on stale facts.

let t: TestApp;
/** The placement reads' texts, each on one line, from every kind of placement below. */
const reads: string[] = [];

type Method = "GET" | "POST" | "PUT";
async function call(who: TestAccount, method: Method, url: string, payload?: object) {
  const res = await t.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
}

/** Runs `work`, keeping the placement reads the app's pool sent meanwhile. */
const keepReads = (work: () => Promise<unknown>) =>
  watchQueries(
    t.database.pool,
    (query) => {
      const text = query.text.replace(/\s+/g, " ").trim();
      if (/^with wanted as/.test(text)) reads.push(text);
    },
    work,
  );

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: "reads-admin@example.com" });
  const admin = await signUpAdmin(t, { email: "reads-admin@example.com" });
  const zone = await call(admin, "POST", "/api/shipping-zones", {
    name: "United States",
    countries: ["US"],
    methods: [{ name: "Standard", estimate: "3-5 business days", kind: "flat", price: 9.95 }],
  });
  const methodId: string = zone.methods[0].id;
  await call(admin, "POST", "/api/tax-rates", {
    country: "US",
    region: "TX",
    name: "Texas sales tax",
    rate: 6.25,
  });
  const austin = AUSTIN_ADDRESS;
  const part = () =>
    insertProduct(t.database.db, { priceCents: 1000, minimumOrder: 1, availableQuantity: 50 });
  const { choice: civic } = await insertVehicle(t.database.db, "Honda", "Civic", [2018]);

  // A driver: one product through the specification's order, then a cart with a vehicle on
  // one line, checked out to their saved address with shipping and tax.
  const driver = await signUp(t.app);
  const address = await call(driver, "POST", "/api/user/addresses", austin);
  const [a, b, c] = [await part(), await part(), await part()];
  await call(driver, "PUT", `/api/cart/items/${b.id}`, { qty: 1, vehicle: civic });
  await call(driver, "PUT", `/api/cart/items/${c.id}`, { qty: 1 });
  const quote = await call(driver, "POST", "/api/cart/quote", {
    addressId: address.id,
    shippingMethodId: methodId,
  });
  await keepReads(async () => {
    await call(driver, "POST", "/api/orders", {
      productId: a.id,
      orderQty: 1,
      phonrNo: "5550100",
      Address: "1 Dock Road",
    });
    await call(driver, "POST", "/api/checkout", {
      addressId: address.id,
      shippingMethodId: methodId,
      expectedTotal: quote.total,
    });
  });

  // A company's buyer: the company's price list, shipped to one of its ship-to addresses.
  const d = await part();
  const list = await createPriceList(t.app, admin, [{ productId: d.id, unitPrice: 8 }]);
  const company = await createCompany(t.app, admin, { priceListId: list.id });
  const shipTo = await call(admin, "POST", `/api/companies/${company.id}/addresses`, austin);
  const buyer = await joinCompany(t.app, admin, company.id, "buyer");
  await call(buyer, "PUT", `/api/cart/items/${d.id}`, { qty: 1 });
  const buyerQuote = await call(buyer, "POST", "/api/cart/quote", {
    addressId: shipTo.id,
    shippingMethodId: methodId,
  });
  await keepReads(() =>
    call(buyer, "POST", "/api/checkout", {
      addressId: shipTo.id,
      shippingMethodId: methodId,
      expectedTotal: buyerQuote.total,
    }),
  );
});
afterAll(() => t.close());

/** The names a statement gives its own subqueries (`with wanted as (…)`, `, place as (…)`). */
const subqueryNames = (text: string) =>
  new Set([...text.matchAll(/(?:with|,)\s+"?([a-z_]+)"?\s+as\s+\(/gi)].map((m) => m[1]!));

/** The tables a statement reads, with the aliases it gives each. */
function tablesOf(text: string): Map<string, Set<string>> {
  const own = subqueryNames(text);
  const tables = new Map<string, Set<string>>();
  // `from products p`, `join "user" u on …`: not `from r.window_start` (extract's) nor a function.
  for (const m of text.matchAll(
    /\b(?:from|join)\s+"?([a-z_]+)"?(?![.\w(])(?:\s+(?:as\s+)?(?!on\b|where\b|join\b|left\b|order\b|group\b|limit\b)([a-z_]+)\b)?/gi,
  )) {
    const [, table, alias] = m;
    if (own.has(table!)) continue;
    const aliases = tables.get(table!) ?? new Set<string>();
    if (alias) aliases.add(alias);
    tables.set(table!, aliases);
  }
  return tables;
}

test("the placements above read with every branch: lines, a vehicle, a saved and a company address, a price list", () => {
  const all = reads.join("\n");
  expect(reads.length).toBeGreaterThanOrEqual(3);
  for (const table of ["base_vehicles", "addresses", "company_addresses", "price_list_entries"]) {
    expect(tablesOf(all).has(table), table).toBe(true);
  }
});

test("every table a placement reads is declared in PLACEMENT_READS", () => {
  const declared = new Set<string>([
    ...Object.keys(PLACEMENT_READS.facts),
    ...PLACEMENT_READS.customer,
    ...PLACEMENT_READS.everyTime,
  ]);
  const read = new Set(reads.flatMap((text) => [...tablesOf(text).keys()]));
  read.delete("placement_facts"); // the version itself
  expect([...read].filter((table) => !declared.has(table)).sort()).toEqual([]);
});

test("every change to a table of facts, or to a column of it a placement reads, moves the placement facts' version on", async () => {
  const { rows } = await t.database.pool.query<{
    table: string;
    fn: string;
    events: number;
    columns: string[] | null;
  }>(
    `select c.relname as table, p.proname as fn, tg.tgtype::int as events,
            (select array_agg(a.attname::text) from pg_attribute a
              where a.attrelid = tg.tgrelid and a.attnum = any(tg.tgattr)) as columns
       from pg_trigger tg
       join pg_class c on c.oid = tg.tgrelid
       join pg_proc p on p.oid = tg.tgfoid
      where not tg.tgisinternal
        and p.proname in ('placement_facts_changed', 'notify_product_changed')`,
  );
  // pg_trigger.tgtype's bits: INSERT 4, DELETE 8, UPDATE 16 (TRUNCATE 32).
  const INSERT = 4;
  const DELETE = 8;
  const UPDATE = 16;
  for (const [table, watched] of Object.entries(PLACEMENT_READS.facts)) {
    const triggers = rows.filter((r) => r.table === table);
    const on = triggers.reduce((bits, r) => bits | r.events, 0);
    expect(on & INSERT, `${table}: no trigger on insert`).toBe(INSERT);
    expect(on & DELETE, `${table}: no trigger on delete`).toBe(DELETE);
    expect(on & UPDATE, `${table}: no trigger on update`).toBe(UPDATE);
    const updates = triggers.filter((r) => r.events & UPDATE);
    // A trigger `UPDATE OF` some columns watches those only: each listed one must be among them.
    const everyColumn = updates.some((r) => !r.columns);
    if (watched === "every column" || watched === "every column but the stock") {
      expect(everyColumn, `${table}: its update trigger watches some columns only`).toBe(true);
      continue;
    }
    if (everyColumn) continue;
    const columns = new Set(updates.flatMap((r) => r.columns ?? []));
    expect(watched.filter((column: string) => !columns.has(column))).toEqual([]);
  }
});

test("of a table whose trigger watches some columns, a placement reads only the columns listed", async () => {
  for (const [table, watched] of Object.entries(PLACEMENT_READS.facts)) {
    if (typeof watched === "string") continue;
    const { rows } = await t.database.pool.query<{ column: string }>(
      `select column_name as column from information_schema.columns where table_name = $1`,
      [table],
    );
    const columns = new Set(rows.map((r) => r.column));
    const used = new Set<string>();
    for (const text of reads) {
      for (const alias of tablesOf(text).get(table) ?? []) {
        for (const m of text.matchAll(new RegExp(`\\b${alias}\\.([a-z_]+)`, "g"))) {
          if (columns.has(m[1]!)) used.add(m[1]!);
        }
      }
    }
    used.delete("id"); // a row's id never changes
    expect(used.size, `${table}: no column of it read`).toBeGreaterThan(0);
    const listed = new Set<string>(watched);
    expect([...used].filter((column) => !listed.has(column)).sort()).toEqual([]);
  }
});
