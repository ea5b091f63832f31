// npm run bench [-- --full | catalog orders overload hot-row checkout scale quick-order company-prices group-pricing invoices startup pages parts imports idempotency bulk-sync webhooks warranty-report storage backorders nodes replica]:
// runs the benchmarks named; with none, the quick set (about 10 minutes: the orders at 50
// connections only, without the 100,000-product sweeps scale, quick-order and company-prices);
// with --full, every one and the orders' whole sweep. Prints their figures and writes
// bench/results/latest.json. Never fails on timing. With `--against REV` (catalog, orders,
// checkout, startup), also REV's build, in turns with ours, and the ratios working tree ÷ REV.
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { catalogBaseline, catalogFigures, printCatalog, runCatalogBench } from "./catalog";
import { checkoutFigures, printCheckout, runCheckoutBench } from "./checkout";
import { printInvoices, runInvoicesBench } from "./invoices";
import { compareFigures, formatComparison, type Figure } from "./lib/comparison";
import {
  describeBuild,
  RevisionSchemaError,
  root,
  workingTree,
  type StoreBuild,
} from "./lib/harness";
import { prepareRevisionBuild } from "./lib/revision-build";
import {
  ordersBaseline,
  ordersFigures,
  printOrders,
  runOrdersBench,
  type OrdersResult,
} from "./orders";
import { printOverload, runOverloadBench } from "./overload";
import { printHotRow, runHotRowBench } from "./hot-row";
import { printQuickOrder, runQuickOrderBench } from "./quick-order";
import { printCompanyPrices, runCompanyPricesBench } from "./company-prices";
import { printGroupPricing, runGroupPricingBench } from "./group-pricing";
import { formatPagesResult, runPagesBench } from "./pages";
import { printIdempotency, runIdempotencyBench } from "./idempotency";
import { printWebhooks, runWebhooksBench } from "./webhooks";
import { printWarrantyReport, runWarrantyReportBench } from "./warranty-report";
import { printStorage, runStorageBench } from "./storage";
import { printNodes, runNodesBench } from "./nodes";
import { printReplica, runReplicaBench } from "./replica";
import { printBackorders, runBackordersBench } from "./backorders";
import { printBulkSync, runBulkSyncBench } from "./bulk-sync";
import { printImports, runImportsBench } from "./imports";
import { printParts, runPartsBench } from "./parts";
import { printScale, runScaleBench } from "./scale";
import { printStartup, runStartupBench, startupFigures } from "./startup";

const args = process.argv.slice(2);
// `--against REV`: the benchmarks that can run two builds in turns run REV's beside ours.
const againstAt = args.indexOf("--against");
const against = againstAt < 0 ? undefined : args[againstAt + 1];
if (againstAt >= 0 && (!against || against.startsWith("-"))) {
  console.error("--against needs a revision: npm run bench -- --against HEAD~1 [names…]");
  process.exit(2);
}
const rest = args.filter((_, i) => againstAt < 0 || (i !== againstAt && i !== againstAt + 1));
const full = rest.includes("--full");

/**
 * A benchmark: its runner takes the builds to measure and answers a result for each, in their
 * order. Those with `figures` can compare two builds (`--against`).
 */
interface Bench<R> {
  run(builds: StoreBuild[]): Promise<R[]>;
  print(r: R): void;
  figures?(r: R): Figure[];
  baseline?(r: R): Omit<Figure, "better">[];
}
const bench = <R>(b: Bench<R>) => b;
/** A benchmark of the working tree only. */
const single = <R>(run: () => Promise<R>, print: (r: R) => void) =>
  bench({ run: async () => [await run()], print });

const benches = {
  catalog: bench({
    run: runCatalogBench,
    print: printCatalog,
    figures: catalogFigures,
    baseline: catalogBaseline,
  }),
  orders: bench({
    // The whole sweep when named (`asked` is known by the time it runs).
    run: (builds): Promise<OrdersResult[]> => runOrdersBench(full || asked.length > 0, builds),
    print: printOrders,
    figures: ordersFigures,
    baseline: ordersBaseline,
  }),
  overload: single(runOverloadBench, printOverload),
  "hot-row": single(runHotRowBench, printHotRow),
  checkout: bench({ run: runCheckoutBench, print: printCheckout, figures: checkoutFigures }),
  scale: single(runScaleBench, printScale),
  "quick-order": single(runQuickOrderBench, printQuickOrder),
  "company-prices": single(runCompanyPricesBench, printCompanyPrices),
  "group-pricing": single(runGroupPricingBench, printGroupPricing),
  invoices: single(runInvoicesBench, printInvoices),
  startup: bench({ run: runStartupBench, print: printStartup, figures: startupFigures }),
  pages: single(runPagesBench, (r) => console.log(formatPagesResult(r))),
  parts: single(runPartsBench, printParts),
  imports: single(runImportsBench, printImports),
  idempotency: single(runIdempotencyBench, printIdempotency),
  webhooks: single(runWebhooksBench, printWebhooks),
  "bulk-sync": single(runBulkSyncBench, printBulkSync),
  "warranty-report": single(runWarrantyReportBench, printWarrantyReport),
  storage: single(runStorageBench, printStorage),
  nodes: single(runNodesBench, printNodes),
  replica: single(runReplicaBench, printReplica),
  backorders: single(runBackordersBench, printBackorders),
};
type Name = keyof typeof benches;

const asked = rest.filter((a): a is Name => a in benches);
/** The long sweeps, left out of the quick run. */
const LONG: Name[] = ["scale", "quick-order", "company-prices", "parts", "imports"];
const comparable = (n: Name) => "figures" in benches[n];
const names =
  asked.length > 0
    ? asked
    : (Object.keys(benches) as Name[]).filter(
        (n) => (full || !LONG.includes(n)) && (!against || comparable(n)),
      );
const alone = names.filter((n) => !comparable(n));
if (against && alone.length > 0) {
  const all = (Object.keys(benches) as Name[]).filter(comparable);
  console.error(
    `--against compares ${all.join(", ")}; ${alone.join(", ")} measure${alone.length === 1 ? "s" : ""} the working tree only.`,
  );
  process.exit(2);
}

if (names.includes("pages") || names.includes("parts")) {
  console.log("Building the web app (the page benchmarks measure the production build)...");
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "ignore" });
}
const revision = against ? prepareOrExit(against) : undefined;
const builds = revision ? [workingTree, revision] : [workingTree];

const results: Record<string, unknown> = {};
for (const name of names) {
  console.log(`\n== ${name} ==`);
  const started = Date.now();
  results[name] = await runBench(name, benches[name] as Bench<unknown>);
  console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
}

function prepareOrExit(rev: string): StoreBuild {
  try {
    return prepareRevisionBuild(rev);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}

/** Runs and prints one benchmark; answers what latest.json keeps of it. */
async function runBench(name: Name, b: Bench<unknown>): Promise<unknown> {
  let sides: unknown[];
  try {
    sides = await b.run(builds);
  } catch (err) {
    if (!(err instanceof RevisionSchemaError)) throw err;
    console.error(
      `\n${name} --against ${against}: ${err.message}\n` +
        `${name} seeds and checks its data with that SQL, and ${against}'s store migrated its ` +
        `database to its own schema: ${name} cannot compare with ${against} (bench/README.md, "--against").`,
    );
    process.exit(1);
  }
  const [ours, theirs] = sides;
  if (!revision) {
    b.print(ours);
    return ours;
  }
  console.log(`-- ${workingTree.label} --`);
  b.print(ours);
  console.log(`-- ${describeBuild(revision)} --`);
  b.print(theirs);
  const comparison = compareFigures(b.figures!(ours), b.figures!(theirs));
  const baseline = b.baseline?.(ours) ?? [];
  console.log(formatComparison(revision, comparison, baseline));
  return {
    workingTree: ours,
    revision: theirs,
    comparison,
    ...(baseline.length > 0 && { baseline }),
  };
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
      ...(revision && { against: { revision: revision.label, sha: revision.sha } }),
      results,
    },
    null,
    2,
  ),
);
console.log(`\nwrote ${path.relative(root, file)}`);
