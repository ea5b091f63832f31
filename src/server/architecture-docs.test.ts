import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

// The map and the code agree, as docs/configuration.md and config.ts do (config-docs.test.ts):
// a newcomer finds a feature by its name in docs/architecture.md "What is where", so every folder
// of the code is named there, and nothing named there is gone. Paths the docs name elsewhere
// must still lead somewhere.
const root = path.resolve(import.meta.dirname, "../..");
const read = (rel: string) => readFileSync(path.join(root, rel), "utf8");
const isDir = (rel: string) =>
  existsSync(path.join(root, rel)) && statSync(path.join(root, rel)).isDirectory();

/** Folders under `rel`, as repository paths ending in "/", to `depth` levels down. */
function foldersUnder(rel: string, depth: number): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const child = `${rel}/${e.name}`;
    out.push(`${child}/`);
    if (depth > 1) out.push(...foldersUnder(child, depth - 1));
  }
  return out;
}

/** The text of one `## ` section of a markdown page, up to the next one. */
function section(page: string, heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start, `"## ${heading}" in the page`).toBeGreaterThanOrEqual(0);
  const end = page.indexOf("\n## ", start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

const backticked = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

const map = section(read("docs/architecture.md"), "What is where");

test('docs/architecture.md "What is where" names every folder of the code, and only those', () => {
  const expected = [
    ...foldersUnder("src/server", 9),
    // The web app's own folders, and each feature (a feature's api/ and components/ go unnamed).
    ...foldersUnder("src/web", 1),
    ...foldersUnder("src/web/app", 1),
    ...foldersUnder("src/web/features", 1),
  ].filter((f) => f !== "src/web/features/");
  const named = new Set(backticked(map).filter((p) => /^src\/[\w./-]+\/$/.test(p)));
  expect(expected.filter((f) => !named.has(f)).sort()).toEqual([]);
  expect([...named].filter((f) => !isDir(f)).sort()).toEqual([]);
});

test('docs/architecture.md "What is where" names every contract file', () => {
  const start = map.indexOf("\n### The contract");
  expect(start).toBeGreaterThanOrEqual(0);
  const end = map.indexOf("\n### ", start + 1);
  const named = new Set(backticked(map.slice(start, end < 0 ? undefined : end)));
  const files = readdirSync(path.join(root, "src/contract")).filter(
    (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"),
  );
  expect(files.filter((f) => !named.has(f)).sort()).toEqual([]);
  expect([...named].filter((f) => f.endsWith(".ts") && !files.includes(f)).sort()).toEqual([]);
});

/** README.md and docs/*.md; decisions are records of their day and keep the paths they had. */
const pages = [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

// A short path is read from the folder it is usually written from (`auth/guards.ts` means
// src/server/auth/guards.ts; `app/router.tsx`, src/web/app/router.tsx).
// `api/x.ts` and `components/x.tsx`, from a feature's folder.
const bases = [
  "",
  "src/server/",
  "src/web/",
  "src/web/features/",
  "src/",
  "tests/",
  ...foldersUnder("src/web/features", 1),
];

/**
 * A code path a page names in backticks: a file (`src/server/x/y.ts`, `x/y.ts`) or a folder of
 * the code (`src/web/app/`; folders of a machine, `sites-enabled/`, are not the code's).
 */
const looksLikeCodePath = (p: string) =>
  /^[\w.-]+(\/[\w.-]+)*\/[\w.-]+\.(ts|tsx|mjs|sql)$/.test(p) ||
  /^(src|tests|scripts|bench|public)\/([\w.-]+\/)*$/.test(p);

test("every code path the docs name exists", () => {
  const missing: string[] = [];
  for (const page of pages) {
    for (const p of backticked(read(page)).filter(looksLikeCodePath)) {
      if (!bases.some((b) => existsSync(path.join(root, b + p)))) missing.push(`${page}: ${p}`);
    }
  }
  expect(missing).toEqual([]);
});

test("every doc a page or a comment links to exists", () => {
  const missing: string[] = [];
  for (const page of pages) {
    for (const m of read(page).matchAll(/\]\(([\w./-]+\.md)(#[\w-]*)?\)/g)) {
      if (!existsSync(path.join(root, path.dirname(page), m[1]!))) missing.push(`${page}: ${m[1]}`);
    }
  }
  const sources: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (e.isDirectory()) walk(`${rel}/${e.name}`);
      else if (/\.(ts|tsx)$/.test(e.name)) sources.push(`${rel}/${e.name}`);
    }
  };
  walk("src");
  for (const file of sources) {
    for (const m of read(file).matchAll(/\bdocs\/([\w/-]+\.md)/g)) {
      if (!existsSync(path.join(root, "docs", m[1]!))) missing.push(`${file}: docs/${m[1]}`);
    }
  }
  expect(missing).toEqual([]);
});
