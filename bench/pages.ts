/**
 * Page benchmark: Lighthouse (mobile preset, default simulated throttling) on the public pages of
 * the production build, and the size of the JavaScript and CSS the landing page loads.
 *
 *   npm run build && npx tsx bench/pages.ts
 *
 * Prints a table with the targets next to the figures and writes bench/results/pages.json. It is a
 * measurement, not a test: it never fails on a figure, only when it cannot measure.
 */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startServerProcess } from "../tests/support/server-process";
import { chromiumFlags, chromiumPath } from "../tests/support/chromium";

const root = path.resolve(import.meta.dirname, "..");
const webDist = path.join(root, "dist", "web");
const resultsFile = path.join(root, "bench", "results", "pages.json");

export const PAGES = [
  "/",
  "/allproducts",
  // All products with a category chosen: its attribute facets beside the list.
  "/allproducts?category=Brakes",
  "/blogs",
  // A part's public page (the demo's brake kit).
  "/parts/pw-bk-3001-ventilated-brake-disc-caliper-kit",
] as const;
export const RUNS = 3;
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];

const CHROME_FLAGS = ["--headless=new", ...chromiumFlags];

/** The targets. Scores are 0-100, times in milliseconds, sizes in bytes. */
export const TARGETS = {
  performance: 95,
  accessibility: 100,
  "best-practices": 100,
  seo: 95,
  lcpMs: 2000,
  cls: 0.02,
  landingJsGzipBytes: 100 * 1024,
} as const;

/** Code that public pages must never download: admin and dashboard screens, form libraries. */
const PUBLIC_PAGE_FORBIDDEN: { label: string; test: (module: string) => boolean }[] = [
  { label: "users feature", test: (m) => m.startsWith("src/web/features/users/") },
  {
    label: "admin orders screens",
    test: (m) => /^src\/web\/features\/orders\/(components\/orders-|api\/orders-admin)/.test(m),
  },
  {
    label: "dashboard route",
    test: (m) =>
      /^src\/web\/app\/routes\/(dashboard-layout|profile|add-review|my-items|payment|all-users|add-product|manage-products|manage-orders)\.tsx$/.test(
        m,
      ),
  },
  { label: "route guard", test: (m) => m === "src/web/app/guards.tsx" },
  { label: "account feature", test: (m) => m.startsWith("src/web/features/account/") },
  { label: "payments feature", test: (m) => m.startsWith("src/web/features/payments/") },
  {
    label: "form, chart, payment or toast library",
    test: (m) =>
      [
        "zod",
        "react-hook-form",
        "@hookform/resolvers",
        "uplot",
        "@stripe/stripe-js",
        "sonner",
      ].includes(m) || m === "@stripe/react-stripe-js",
  },
];

export interface RunFigures {
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  speedIndexMs: number;
  benchmarkIndex: number;
}

export interface FailingAudit {
  category: Category;
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
  /** In how many of the runs it scored below 1 (below 0.9 for performance audits). */
  failedRuns: number;
}

export interface PageResult {
  path: string;
  runs: RunFigures[];
  /** Median of each figure over the runs, taken figure by figure. */
  median: Omit<RunFigures, "benchmarkIndex">;
  /** Audits pulling down a category whose median score is below its target. */
  failing: FailingAudit[];
  /** Same-origin scripts the page loaded (first run), and forbidden code found in them. */
  scripts: string[];
  forbidden: { file: string; module: string; label: string }[];
  /** The LCP element and where its time went (Lighthouse's phases), in the median-LCP run. */
  lcp: { element: string; phases: Record<string, number> };
}

export interface AssetSize {
  url: string;
  /** The built file under dist/web, when the URL maps to one. */
  file: string | null;
  rawBytes: number | null;
  /** zlib gzip, level 9, of the built file: independent of how the server answers. */
  gzipBytes: number | null;
  brotliBytes: number | null;
  /** Bytes on the wire as Lighthouse saw them (headers included). */
  transferBytes: number;
  contentEncoding: string | null;
}

export interface AssetGroup {
  files: AssetSize[];
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
  transferBytes: number;
  /** Whether every file came compressed (then transferBytes is the compressed figure). */
  allCompressed: boolean;
}

export interface PagesResult {
  date: string;
  machine: { cpus: number; node: string; chromium: string; benchmarkIndex: number };
  settings: { runs: number; formFactor: string; throttlingMethod: string };
  targets: typeof TARGETS;
  pages: PageResult[];
  landing: { js: AssetGroup; css: AssetGroup };
  /** Which targets hold (medians). */
  met: Record<string, boolean>;
}

export async function runPagesBench(
  options: { runs?: number; log?: (line: string) => void } = {},
): Promise<PagesResult> {
  const runs = options.runs ?? RUNS;
  const log = options.log ?? (() => {});
  if (!existsSync(path.join(webDist, "index.html")) || !existsSync(path.join(webDist, "assets"))) {
    throw new Error(
      `bench/pages.ts measures the production build, and ${path.relative(root, webDist)} has none: run \`npm run build\` first.`,
    );
  }
  const chunkModules = await readChunkModules();
  const chromePath = chromiumPath;
  if (!existsSync(chromePath)) {
    throw new Error(`Chromium not found at ${chromePath}: install it or set CHROMIUM_PATH.`);
  }

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-bench-pages-"));
  log(`starting the production server (data in ${dataDir}) ...`);
  // The build's server, as `npm start` runs it (`npm run build` made both).
  const server = await startServerProcess(
    { DATA_DIR: dataDir, HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    [],
    { compiled: true },
  ).catch(async (error: unknown) => {
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  try {
    // One request per page and per API call its HTML preloads first, so no run pays for a cold
    // server (nor a cold catalog cache: All products is rendered with its products from it).
    for (const page of PAGES) {
      const html = await (await fetch(server.url + page)).text();
      for (const [, href] of html.matchAll(/<link rel="preload" as="fetch"[^>]*href="([^"]+)"/g)) {
        await (await fetch(server.url + href!.replaceAll("&amp;", "&"))).arrayBuffer();
      }
    }

    const pages: PageResult[] = [];
    let landing: PagesResult["landing"] | undefined;
    let chromium = "";
    const benchmarkIndexes: number[] = [];
    for (const page of PAGES) {
      const runFigures: RunFigures[] = [];
      const lhrs: LighthouseResult[] = [];
      let firstRun: RunOutput | undefined;
      for (let i = 0; i < runs; i++) {
        log(`lighthouse ${page} run ${i + 1}/${runs} ...`);
        const out = await runLighthouseWithRetries(server.url + page, chromePath, log);
        firstRun ??= out;
        chromium = out.lhr.environment.hostUserAgent;
        lhrs.push(out.lhr);
        runFigures.push(figuresOf(out.lhr));
        benchmarkIndexes.push(out.lhr.environment.benchmarkIndex);
      }
      if (!firstRun) throw new Error("no Lighthouse run");
      const median = medianFigures(runFigures);
      const scripts = sameOriginRequests(firstRun, server.url, "Script").map((r) => r.url);
      const forbidden = scripts.flatMap((url) => forbiddenIn(url, server.url, chunkModules));
      pages.push({
        path: page,
        runs: runFigures,
        median,
        failing: failingAudits(lhrs, median.scores),
        lcp: lcpDetails(lhrs, median.lcpMs),
        scripts: scripts.map((u) => new URL(u).pathname),
        forbidden,
      });
      if (page === "/") {
        landing = {
          js: await assetGroup(sameOriginRequests(firstRun, server.url, "Script"), server.url),
          css: await assetGroup(sameOriginRequests(firstRun, server.url, "Stylesheet"), server.url),
        };
      }
    }
    if (!landing) throw new Error("the landing page was not measured");

    const met: Record<string, boolean> = {};
    for (const p of pages) {
      for (const c of CATEGORIES) met[`${p.path} ${c}`] = p.median.scores[c] >= TARGETS[c];
      met[`${p.path} lcp`] = p.median.lcpMs <= TARGETS.lcpMs;
      met[`${p.path} cls`] = p.median.cls <= TARGETS.cls;
      met[`${p.path} no admin/dashboard/form code`] = p.forbidden.length === 0;
    }
    met["landing js gzip"] = landing.js.gzipBytes <= TARGETS.landingJsGzipBytes;

    return {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        node: process.version,
        chromium,
        benchmarkIndex: median(benchmarkIndexes),
      },
      settings: { runs, formFactor: "mobile", throttlingMethod: "simulate" },
      targets: TARGETS,
      pages,
      landing,
      met,
    };
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

interface NetworkRequest {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
}

interface RunOutput {
  lhr: LighthouseResult;
  requests: NetworkRequest[];
  /** content-encoding of each response, by URL, from the DevTools protocol log. */
  encodings: Map<string, string | null>;
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART and the like): run it again. */
async function runLighthouseWithRetries(
  url: string,
  chromePath: string,
  log: (line: string) => void,
  attempts = 3,
): Promise<RunOutput> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLighthouse(url, chromePath);
    } catch (error) {
      if (attempt >= attempts) throw error;
      log(`  ${error instanceof Error ? error.message : String(error)}; trying again`);
    }
  }
}

async function runLighthouse(url: string, chromePath: string): Promise<RunOutput> {
  // A fresh browser per run: no cache, no warmed-up renderer carried between runs.
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr, artifacts } = result;
    if (lhr.runtimeError) {
      throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
    }
    const details = lhr.audits["network-requests"]?.details;
    const requests =
      details && details.type === "table" ? (details.items as unknown as NetworkRequest[]) : [];
    const encodings = new Map<string, string | null>();
    for (const entry of artifacts.DevtoolsLog) {
      if (entry.method !== "Network.responseReceived") continue;
      const response = entry.params.response;
      const header = Object.entries(response.headers).find(
        ([name]) => name.toLowerCase() === "content-encoding",
      );
      encodings.set(response.url, header ? String(header[1]) : null);
    }
    return { lhr, requests, encodings };
  } finally {
    chrome.kill();
  }
}

function figuresOf(lhr: LighthouseResult): RunFigures {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
  ) as Record<Category, number>;
  return {
    scores,
    lcpMs: numeric("largest-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    fcpMs: numeric("first-contentful-paint"),
    speedIndexMs: numeric("speed-index"),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function medianFigures(runs: RunFigures[]): PageResult["median"] {
  const of = (pick: (r: RunFigures) => number) => median(runs.map(pick));
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, of((r) => r.scores[c])])) as Record<
      Category,
      number
    >,
    lcpMs: of((r) => r.lcpMs),
    tbtMs: of((r) => r.tbtMs),
    cls: of((r) => r.cls),
    fcpMs: of((r) => r.fcpMs),
    speedIndexMs: of((r) => r.speedIndexMs),
  };
}

function failingAudits(lhrs: LighthouseResult[], scores: Record<Category, number>): FailingAudit[] {
  const failing = new Map<string, FailingAudit>();
  for (const category of CATEGORIES) {
    if (scores[category] >= TARGETS[category]) continue;
    // Performance audits are graded; 0.9 is where Lighthouse turns them green.
    const passAt = category === "performance" ? 0.9 : 1;
    for (const lhr of lhrs) {
      for (const ref of lhr.categories[category]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (!audit || audit.score === null || audit.score >= passAt) continue;
        if (audit.scoreDisplayMode === "informative" || audit.scoreDisplayMode === "manual") {
          continue;
        }
        const key = `${category}:${ref.id}`;
        const seen = failing.get(key);
        if (seen) seen.failedRuns++;
        else {
          failing.set(key, {
            category,
            id: ref.id,
            title: audit.title,
            score: audit.score,
            displayValue: audit.displayValue,
            failedRuns: 1,
          });
        }
      }
    }
  }
  return [...failing.values()];
}

function lcpDetails(lhrs: LighthouseResult[], medianLcpMs: number): PageResult["lcp"] {
  const lhr = lhrs.reduce((best, l) =>
    Math.abs(figuresOf(l).lcpMs - medianLcpMs) < Math.abs(figuresOf(best).lcpMs - medianLcpMs)
      ? l
      : best,
  );
  const details = lhr.audits["largest-contentful-paint-element"]?.details;
  const result: PageResult["lcp"] = { element: "", phases: {} };
  if (details?.type !== "list") return result;
  for (const item of details.items) {
    if (item.type !== "table") continue;
    for (const row of item.items) {
      const node = row.node as { type?: string; snippet?: string } | undefined;
      if (node?.type === "node" && node.snippet) result.element = node.snippet;
      if (typeof row.phase === "string" && typeof row.timing === "number") {
        result.phases[row.phase] = Math.round(row.timing);
      }
    }
  }
  return result;
}

function sameOriginRequests(run: RunOutput, origin: string, resourceType: string) {
  const base = new URL(origin).origin;
  return run.requests
    .filter((r) => r.resourceType === resourceType && new URL(r.url).origin === base)
    .map((r) => ({
      url: r.url,
      transferBytes: r.transferSize ?? 0,
      contentEncoding: run.encodings.get(r.url) ?? null,
    }));
}

async function assetGroup(
  requests: { url: string; transferBytes: number; contentEncoding: string | null }[],
  origin: string,
): Promise<AssetGroup> {
  const files: AssetSize[] = [];
  for (const r of requests) {
    const file = distFileFor(r.url, origin);
    const body = file ? await fs.readFile(path.join(webDist, file)) : null;
    files.push({
      ...r,
      file,
      rawBytes: body?.length ?? null,
      gzipBytes: body ? gzipSync(body, { level: 9 }).length : null,
      brotliBytes: body
        ? brotliCompressSync(body, {
            params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY },
          }).length
        : null,
    });
  }
  const sum = (pick: (f: AssetSize) => number | null) =>
    files.reduce((total, f) => total + (pick(f) ?? 0), 0);
  return {
    files,
    rawBytes: sum((f) => f.rawBytes),
    gzipBytes: sum((f) => f.gzipBytes),
    brotliBytes: sum((f) => f.brotliBytes),
    transferBytes: sum((f) => f.transferBytes),
    allCompressed: files.length > 0 && files.every((f) => f.contentEncoding !== null),
  };
}

/** dist/web-relative path of the built file a same-origin URL is served from, if any. */
function distFileFor(url: string, origin: string): string | null {
  const u = new URL(url);
  if (u.origin !== new URL(origin).origin) return null;
  const rel = path.normalize(decodeURIComponent(u.pathname)).replace(/^[/\\]+/, "");
  if (rel.startsWith("..") || !existsSync(path.join(webDist, rel))) return null;
  return rel;
}

/** chunk file -> source modules and packages in it; written by the build (see vite.config.ts). */
async function readChunkModules(): Promise<Record<string, string[]> | null> {
  const file = path.join(webDist, ".vite", "chunk-modules.json");
  if (!existsSync(file)) return null;
  return JSON.parse(await fs.readFile(file, "utf8")) as Record<string, string[]>;
}

function forbiddenIn(
  url: string,
  origin: string,
  chunkModules: Record<string, string[]> | null,
): PageResult["forbidden"] {
  const file = distFileFor(url, origin);
  if (!file || !chunkModules) return [];
  return (chunkModules[file] ?? []).flatMap((module) =>
    PUBLIC_PAGE_FORBIDDEN.filter((f) => f.test(module)).map((f) => ({
      file,
      module,
      label: f.label,
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// Printing

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mark = (ok: boolean) => (ok ? "ok" : "MISSED");

export function formatPagesResult(r: PagesResult): string {
  const lines: string[] = [];
  const header = ["page", "perf", "a11y", "best-pr", "seo", "LCP", "TBT", "CLS", "FCP", "SI"];
  const rows: string[][] = [
    header,
    [
      "target",
      `>= ${TARGETS.performance}`,
      `${TARGETS.accessibility}`,
      `${TARGETS["best-practices"]}`,
      `>= ${TARGETS.seo}`,
      `<= ${seconds(TARGETS.lcpMs)}`,
      "-",
      `<= ${TARGETS.cls}`,
      "-",
      "-",
    ],
  ];
  for (const p of r.pages) {
    const m = p.median;
    rows.push([
      p.path,
      String(m.scores.performance),
      String(m.scores.accessibility),
      String(m.scores["best-practices"]),
      String(m.scores.seo),
      seconds(m.lcpMs),
      `${Math.round(m.tbtMs)} ms`,
      m.cls.toFixed(3),
      seconds(m.fcpMs),
      seconds(m.speedIndexMs),
    ]);
  }
  const widths = header.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  lines.push(
    `Lighthouse ${r.settings.formFactor}, ${r.settings.throttlingMethod}d throttling, median of ${r.settings.runs} runs` +
      ` (${r.machine.cpus} CPUs, benchmarkIndex ${Math.round(r.machine.benchmarkIndex)})`,
  );
  for (const row of rows) lines.push(row.map((c, i) => c.padEnd(widths[i]!)).join("  "));

  for (const p of r.pages) {
    if (p.failing.length) {
      lines.push("", `${p.path}: audits below target`);
      for (const a of p.failing) {
        const value = a.displayValue ? ` (${a.displayValue})` : "";
        lines.push(
          `  [${a.category}] ${a.id}: ${a.title}${value}, failed in ${a.failedRuns}/${r.settings.runs} runs`,
        );
      }
    }
    if (p.median.lcpMs > TARGETS.lcpMs && p.lcp.element) {
      const phases = Object.entries(p.lcp.phases)
        .map(([phase, ms]) => `${phase} ${ms} ms`)
        .join(", ");
      lines.push(`${p.path}: LCP element ${p.lcp.element.slice(0, 90)}`, `  ${phases}`);
    }
    if (p.forbidden.length) {
      lines.push(`${p.path}: loads code public pages must not:`);
      for (const f of p.forbidden) lines.push(`  ${f.file}: ${f.module} (${f.label})`);
    }
  }

  const { js, css } = r.landing;
  const wire = (g: AssetGroup) =>
    g.allCompressed
      ? `${kb(g.transferBytes)} transferred (${[...new Set(g.files.map((f) => f.contentEncoding))].join(", ")})`
      : `${kb(g.transferBytes)} transferred, NOT all compressed by the server`;
  lines.push(
    "",
    "Landing page (/) assets: gzip -9 of the built files; brotli q11; on the wire",
    `  JS  ${js.files.length} files  ${kb(js.gzipBytes)} gzip (target <= ${kb(TARGETS.landingJsGzipBytes)}: ${mark(r.met["landing js gzip"] ?? false)})` +
      `  ${kb(js.brotliBytes)} br  ${kb(js.rawBytes)} raw  ${wire(js)}`,
    `  CSS ${css.files.length} files  ${kb(css.gzipBytes)} gzip  ${kb(css.brotliBytes)} br  ${kb(css.rawBytes)} raw  ${wire(css)}`,
  );
  for (const f of [...js.files, ...css.files].sort(
    (a, b) => (b.gzipBytes ?? 0) - (a.gzipBytes ?? 0),
  )) {
    lines.push(
      `    ${(f.file ?? f.url).padEnd(44)} ${kb(f.gzipBytes ?? 0).padStart(9)} gzip  ${kb(f.transferBytes).padStart(9)} wire (${f.contentEncoding ?? "identity"})`,
    );
  }

  const missed = Object.entries(r.met).filter(([, ok]) => !ok);
  lines.push(
    "",
    missed.length
      ? `Targets missed: ${missed.map(([k]) => k).join("; ")}`
      : "All targets met (medians).",
  );
  return lines.join("\n");
}

async function main() {
  const result = await runPagesBench({ log: (line) => console.error(line) });
  console.log(formatPagesResult(result));
  await fs.mkdir(path.dirname(resultsFile), { recursive: true });
  await fs.writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), resultsFile)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
