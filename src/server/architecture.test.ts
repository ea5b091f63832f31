import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

/**
 * The server's shape, checked (docs/architecture.md "What is where"): each table is written by
 * the one module that declares it (`<module>/tables.ts`); every other module changes it through
 * that module's functions.
 */
const serverDir = import.meta.dirname;

/** Every non-test TypeScript file under src/server, as paths relative to it. */
function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(serverDir, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")) out.push(rel);
    }
  };
  walk("");
  return out;
}

/** The module (top folder) a source file belongs to; "(root)" for src/server's own files. */
const moduleOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0]! : "(root)");

/** Each table's SQL name and Drizzle name, with the module whose `tables.ts` declares it. */
function declaredTables() {
  const tables: { sqlName: string; jsName: string; owner: string }[] = [];
  for (const file of sourceFiles().filter((f) => f.endsWith(`${path.sep}tables.ts`))) {
    const text = readFileSync(path.join(serverDir, file), "utf8");
    for (const m of text.matchAll(/export const (\w+) = pgTable\(\s*"(\w+)"/g)) {
      tables.push({ jsName: m[1]!, sqlName: m[2]!, owner: moduleOf(file) });
    }
  }
  return tables;
}

/** Comments hold words like "update orders"; only code writes. */
const withoutComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/[^\n]*/g, "$1");

/**
 * Every write in the source: Drizzle's `.insert(t)`, `.update(t)`, `.delete(t)` and SQL's
 * `insert into t`, `update t`, `delete from t` (by name or by `${t}`), with the statement's text
 * up to its end (for the stock columns' rule below).
 */
function writes(tables: ReturnType<typeof declaredTables>) {
  const byJs = new Map(tables.map((t) => [t.jsName, t]));
  const bySql = new Map(tables.map((t) => [t.sqlName, t]));
  const found: { table: string; owner: string; writer: string; file: string; text: string }[] = [];
  for (const file of sourceFiles()) {
    const code = withoutComments(readFileSync(path.join(serverDir, file), "utf8"));
    const add = (t: (typeof tables)[number] | undefined, at: number) => {
      if (!t) return;
      const text = code.slice(at, at + 400);
      found.push({ table: t.sqlName, owner: t.owner, writer: moduleOf(file), file, text });
    };
    for (const m of code.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) {
      add(byJs.get(m[1]!), m.index);
    }
    for (const m of code.matchAll(
      /\b(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?(?=[\s(]|$)/gi,
    )) {
      add(bySql.get(m[1]!), m.index);
    }
    for (const m of code.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+\$\{(\w+)\}/gi)) {
      add(byJs.get(m[1]!), m.index);
    }
  }
  return found;
}

/**
 * The one exception, by column: stock moves only through the inventory module (DESIGN.md §6),
 * and the stock is a column of the catalog's products. The inventory's writes to products set
 * the available quantity and nothing else.
 */
const columnOwners: Record<string, Record<string, RegExp>> = {
  products: { inventory: /^update\s+products\s+(?:\w+\s+)?set\s+available_quantity\s*=/i },
};

test("each table is written only by the module whose tables.ts declares it", () => {
  const tables = declaredTables();
  expect(tables.length).toBeGreaterThan(50);
  const found = writes(tables);
  // The scan finds writes: the orders' own, for one.
  expect(found.some((w) => w.table === "orders" && w.writer === "orders")).toBe(true);
  const strangers = found
    .filter((w) => w.writer !== w.owner)
    .filter((w) => !columnOwners[w.table]?.[w.writer]?.test(w.text))
    .map((w) => `${w.table} (${w.owner}) written in ${w.file}`);
  expect([...new Set(strangers)].sort()).toEqual([]);
});

/**
 * Which modules each module imports (types too), by its source files' relative imports; src/server's
 * own files (the platform: errors, money, config; and the composition: app.ts, domains.ts) are
 * left out, as every module uses the one and the other uses every module.
 */
function moduleImports(): Map<string, Map<string, string>> {
  const imports = new Map<string, Map<string, string>>();
  for (const file of sourceFiles()) {
    const from = moduleOf(file);
    if (from === "(root)") continue;
    const code = withoutComments(readFileSync(path.join(serverDir, file), "utf8"));
    for (const m of code.matchAll(/\bfrom\s+"(\.[^"]+)"/g)) {
      const target = path.relative(serverDir, path.resolve(serverDir, path.dirname(file), m[1]!));
      if (target.startsWith("..") || !target.includes(path.sep)) continue;
      const to = moduleOf(target);
      if (to === from) continue;
      if (!imports.has(from)) imports.set(from, new Map());
      if (!imports.get(from)!.has(to)) imports.get(from)!.set(to, file);
    }
  }
  return imports;
}

test("no two modules import each other: one depends on the other, or neither", () => {
  const imports = moduleImports();
  // The scan finds imports: the checkout's of the orders, for one.
  expect(imports.get("checkout")?.has("orders")).toBe(true);
  const both = [...imports].flatMap(([a, targets]) =>
    [...targets]
      .filter(([b]) => a < b && imports.get(b)?.has(a))
      .map(([b, file]) => `${a} (${file}) ⇄ ${b} (${imports.get(b)!.get(a)})`),
  );
  expect(both).toEqual([]);
});

test("no source file is over 600 lines (tests aside): a longer one holds more than one job", () => {
  const srcDir = path.join(serverDir, "..");
  const long: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        const lines = readFileSync(full, "utf8").split("\n").length - 1;
        if (lines > 600) long.push(`${path.relative(srcDir, full)}: ${lines}`);
      }
    }
  };
  walk(srcDir);
  expect(long).toEqual([]);
});
