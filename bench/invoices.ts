// Invoices (issue 27): an invoice PDF of 20 lines rendered (target p50 <= 50 ms), and 1,000
// invoices issued by 50 parallel payments (gapless and unique, checked; the time it takes).
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { createDatabase, migrateDatabase } from "../src/server/db/database";
import { documentNumber } from "../src/server/invoices/numbering";
import { renderInvoicePdf } from "../src/server/invoices/pdf";
import { createInvoiceService } from "../src/server/invoices/service";
import type { InvoiceSnapshot } from "../src/server/invoices/snapshot";
import { payAllInParallel, unpaidOrders } from "../tests/support/invoices";
import { percentile, round, startBenchPostgres } from "./lib/harness";

const LINES = 20;
const RENDERS = 200;
const INVOICES = 1000;
const PARALLEL = 50;

export interface InvoicesBenchResult {
  render: { lines: number; renders: number; p50Ms: number; p99Ms: number; bytes: number };
  numbering: {
    invoices: number;
    parallel: number;
    seconds: number;
    perSecond: number;
    gapless: boolean;
  };
  target: string;
}

/** A realistic 20-line invoice: a trade buyer, part numbers, shipping and one tax rate. */
function twentyLines(): InvoiceSnapshot {
  const lines = Array.from({ length: LINES }, (_, i) => ({
    line: i + 1,
    partNumber: `04465-${String(33_450 + i * 17).padStart(5, "0")}`,
    description: `${["Brake pad set", "Oil filter", "Spark plug", "Wiper blade"][i % 4]} for model ${i + 1}`,
    qty: 1 + (i % 5),
    unitPriceCents: 1299 + i * 250,
    netCents: (1299 + i * 250) * (1 + (i % 5)),
    taxCents: Math.round(((1299 + i * 250) * (1 + (i % 5)) * 6.25) / 100),
  }));
  const subtotalCents = lines.reduce((s, l) => s + l.netCents, 0);
  const lineTax = lines.reduce((s, l) => s + l.taxCents, 0);
  return {
    seller: {
      name: "PartsWorks",
      address: ["100 Harbour Road", "Springfield, IL 62701", "United States"],
      taxId: "12-3456789",
      email: "accounts@partsworks.example",
    },
    buyer: {
      name: "Jane Doe",
      email: "jane@example.com",
      address: ["100 Congress Ave", "Suite 400", "Austin, TX 78701, United States"],
      company: "Lone Star Garage LLC",
      taxId: "74-1234567",
    },
    order: {
      id: "00000000-0000-4000-8000-000000000001",
      number: "#00000000",
      placedAt: new Date().toISOString(),
      poReference: "PO-5521",
    },
    lines,
    shipping: { method: "Express", netCents: 1995, taxCents: 125 },
    taxes: [
      {
        name: "Texas sales tax",
        rateMillipercent: 6250,
        baseCents: subtotalCents + 1995,
        taxCents: lineTax + 125,
      },
    ],
    subtotalCents,
    shippingCents: 1995,
    taxCents: lineTax + 125,
    totalCents: subtotalCents + 1995 + lineTax + 125,
    currency: "USD",
    paymentTerms: "Paid by card: nothing is due",
    payment: { gateway: "stripe", transactionId: "pi_3Pbench", test: false },
    notes: [],
  };
}

async function measureRender() {
  const snapshot = twentyLines();
  const heading = { number: "INV-2026-000123", issuedAt: new Date(), dueAt: new Date() };
  for (let i = 0; i < 20; i++) await renderInvoicePdf(heading, snapshot);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RENDERS; i++) {
    const started = performance.now();
    bytes = (await renderInvoicePdf(heading, snapshot)).length;
    times.push(performance.now() - started);
  }
  return {
    lines: LINES,
    renders: RENDERS,
    p50Ms: round(percentile(times, 0.5), 1),
    p99Ms: round(percentile(times, 0.99), 1),
    bytes,
  };
}

async function measureNumbering() {
  const pgServer = await startBenchPostgres();
  try {
    const url = await pgServer.createDatabase("invoices");
    const database = createDatabase(url);
    await migrateDatabase(database);
    await database.close();
    const pool = new pg.Pool({ connectionString: url, max: PARALLEL });
    // A connection PostgreSQL ends while it sits idle in the pool (the cluster stopping) is an
    // error event: reported, not a crash of the benchmark.
    pool.on("error", (err) => console.warn(`  an idle connection ended: ${err.message}`));
    try {
      const db = drizzle(pool);
      const service = createInvoiceService(db, {
        seller: { name: "PartsWorks", address: [], taxId: null, email: null },
      });
      const ids = await unpaidOrders(db, INVOICES);
      const when = new Date("2030-01-15T00:00:00Z");
      const started = performance.now();
      const issued = await payAllInParallel(db, service, ids, PARALLEL, when);
      const seconds = (performance.now() - started) / 1000;
      const expected = Array.from({ length: INVOICES }, (_, i) =>
        documentNumber("invoice", 2030, i + 1),
      );
      const gapless = JSON.stringify([...issued].sort()) === JSON.stringify(expected);
      return {
        invoices: INVOICES,
        parallel: PARALLEL,
        seconds: round(seconds, 1),
        perSecond: round(INVOICES / seconds, 0),
        gapless,
      };
    } finally {
      await pool.end();
    }
  } finally {
    await pgServer.stop();
  }
}

export async function runInvoicesBench(): Promise<InvoicesBenchResult> {
  const render = await measureRender();
  const numbering = await measureNumbering();
  return { render, numbering, target: "a 20-line invoice PDF rendered in <= 50 ms p50" };
}

export function printInvoices(r: InvoicesBenchResult) {
  console.log(
    `Invoice PDF, ${r.render.lines} lines: p50 ${r.render.p50Ms} ms, p99 ${r.render.p99Ms} ms over ${r.render.renders} renders (${r.render.bytes} bytes)`,
  );
  console.log(
    `Numbering: ${r.numbering.invoices} invoices from ${r.numbering.parallel} parallel payments in ${r.numbering.seconds} s (${r.numbering.perSecond}/s); ` +
      (r.numbering.gapless ? "gapless and unique" : "NOT GAPLESS OR NOT UNIQUE"),
  );
  console.log(`  target: ${r.target}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printInvoices(await runInvoicesBench());
}
