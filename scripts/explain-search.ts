// A slow product list or search, reproduced from its URL: every statement the catalog makes for
// it, with PostgreSQL's plan and timings (EXPLAIN ANALYZE).
//
//   DATABASE_URL=postgres://… npm run explain-search -- '/api/products?q=brake+discs&sort=price_asc'
//   … -- --without-plan-settings '/api/products?q=brake+discs'
//
// The read is the store's own (src/server/catalog/service.ts), as a process that has just started
// makes it: no word counts or searches remembered yet. Its statements are recorded, then run again
// in one transaction that is rolled back, each read under EXPLAIN (ANALYZE, BUFFERS). The plan
// settings the search makes (`set_config('enable_…')`, decision 009) are applied as it applies
// them; `--without-plan-settings` leaves them out, to see what PostgreSQL would choose alone.
import { pathToFileURL } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { productListQuerySchema } from "../src/contract/products";
import { createVehicleService } from "../src/server/vehicles/service";
import { createCatalogService } from "../src/server/catalog/service";

const pagingFields = new Set(["sort", "limit", "offset"]);

export interface ExplainedStatement {
  sql: string;
  params: unknown[];
  /** The plan with its timings; undefined for a plan setting, which is run as it is. */
  plan?: string;
}

/** The catalog's statements for the list at `url` (`/api/products?…`), each with its plan. */
export async function explainSearch(
  databaseUrl: string,
  url: string,
  opts: { planSettings: boolean } = { planSettings: true },
): Promise<ExplainedStatement[]> {
  const query = productListQuerySchema.parse(
    Object.fromEntries(new URL(url, "http://store.invalid").searchParams),
  );
  const recorded: { sql: string; params: unknown[] }[] = [];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const db = drizzle(pool, {
      logger: { logQuery: (sql, params) => recorded.push({ sql, params }) },
    });
    const vehicle =
      query.year !== undefined && query.make !== undefined && query.model !== undefined
        ? await createVehicleService(db).resolve({
            year: query.year,
            make: query.make,
            model: query.model,
            engine: query.engine,
          })
        : undefined;
    const catalog = createCatalogService(db);
    const filters = Object.fromEntries(Object.entries(query).filter(([k]) => !pagingFields.has(k)));
    await catalog.page(query, vehicle);
    await catalog.count(filters, vehicle);

    const client = await pool.connect();
    const explained: ExplainedStatement[] = [];
    try {
      await client.query("begin");
      for (const { sql, params } of recorded) {
        // Each of the read's own transactions is a savepoint here: the plan settings it made end
        // with it, as they did (set_config(…, true) lasts until its transaction ends).
        if (/^\s*begin\b/i.test(sql)) {
          await client.query("savepoint read");
          continue;
        }
        if (/^\s*(commit|rollback)\b/i.test(sql)) {
          await client.query("rollback to savepoint read");
          continue;
        }
        if (/set_config\('enable_/.test(sql)) {
          if (!opts.planSettings) continue;
          await client.query(sql, params);
          explained.push({ sql, params });
          continue;
        }
        const result = await client.query<{ "QUERY PLAN": string }>(
          `explain (analyze, buffers) ${sql}`,
          params,
        );
        explained.push({ sql, params, plan: result.rows.map((r) => r["QUERY PLAN"]).join("\n") });
      }
    } finally {
      await client.query("rollback");
      client.release();
    }
    return explained;
  } finally {
    await pool.end();
  }
}

function print(statements: ExplainedStatement[]) {
  statements.forEach(({ sql, params, plan }, i) => {
    console.log(`-- ${i + 1}. ${sql}`);
    if (params.length > 0) console.log(`-- parameters: ${JSON.stringify(params)}`);
    console.log(plan ?? "(a plan setting, applied)", "\n");
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const url = args.find((a) => !a.startsWith("--"));
  const databaseUrl = process.env.DATABASE_URL;
  if (!url || !databaseUrl) {
    console.error(
      "usage: DATABASE_URL=postgres://… npm run explain-search -- [--without-plan-settings] '/api/products?q=…'",
    );
    process.exit(2);
  }
  print(
    await explainSearch(databaseUrl, url, {
      planSettings: !args.includes("--without-plan-settings"),
    }),
  );
}
