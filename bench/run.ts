// npm run bench [-- --full | catalog orders overload hot-row checkout scale quick-order company-prices invoices startup pages]:
// runs the benchmarks named; with none, the quick set (about 10 minutes: the orders at 50
// connections only, without the 100,000-product sweeps scale, quick-order and company-prices);
// with --full, every one and the orders' whole sweep. Prints their figures and writes
// bench/results/latest.json. Never fails on timing.
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { printCatalog, runCatalogBench } from "./catalog";
import { printCheckout, runCheckoutBench } from "./checkout";
import { printInvoices, runInvoicesBench } from "./invoices";
import { root } from "./lib/harness";
import { printOrders, runOrdersBench } from "./orders";
import { printOverload, runOverloadBench } from "./overload";
import { printHotRow, runHotRowBench } from "./hot-row";
import { printQuickOrder, runQuickOrderBench } from "./quick-order";
import { printCompanyPrices, runCompanyPricesBench } from "./company-prices";
import { formatPagesResult, runPagesBench } from "./pages";
import { printScale, runScaleBench } from "./scale";
import { printStartup, runStartupBench } from "./startup";

const args = process.argv.slice(2);
const full = args.includes("--full");

const benches = {
  catalog: async () => {
    const r = await runCatalogBench();
    printCatalog(r);
    return r;
  },
  orders: async () => {
    const r = await runOrdersBench(full || asked.length > 0);
    printOrders(r);
    return r;
  },
  overload: async () => {
    const r = await runOverloadBench();
    printOverload(r);
    return r;
  },
  "hot-row": async () => {
    const r = await runHotRowBench();
    printHotRow(r);
    return r;
  },
  checkout: async () => {
    const r = await runCheckoutBench();
    printCheckout(r);
    return r;
  },
  scale: async () => {
    const r = await runScaleBench();
    printScale(r);
    return r;
  },
  "quick-order": async () => {
    const r = await runQuickOrderBench();
    printQuickOrder(r);
    return r;
  },
  "company-prices": async () => {
    const r = await runCompanyPricesBench();
    printCompanyPrices(r);
    return r;
  },
  invoices: async () => {
    const r = await runInvoicesBench();
    printInvoices(r);
    return r;
  },
  startup: async () => {
    const r = await runStartupBench();
    printStartup(r);
    return r;
  },
  pages: async () => {
    const r = await runPagesBench();
    console.log(formatPagesResult(r));
    return r;
  },
};
type Name = keyof typeof benches;

const asked = args.filter((a): a is Name => a in benches);
/** The long sweeps, left out of the quick run. */
const LONG: Name[] = ["scale", "quick-order", "company-prices"];
const names =
  asked.length > 0
    ? asked
    : (Object.keys(benches) as Name[]).filter((n) => full || !LONG.includes(n));

if (names.includes("pages")) {
  console.log("Building the web app (the page benchmark measures the production build)...");
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "ignore" });
}

const results: Record<string, unknown> = {};
for (const name of names) {
  console.log(`\n== ${name} ==`);
  const started = Date.now();
  results[name] = await benches[name]();
  console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
}

const file = path.join(root, "bench/results/latest.json");
await fs.mkdir(path.dirname(file), { recursive: true });
await fs.writeFile(
  file,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        loadAverage: os.loadavg(),
      },
      results,
    },
    null,
    2,
  ),
);
console.log(`\nwrote ${path.relative(root, file)}`);
