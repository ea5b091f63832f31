import { entityKind, Param, SQL, StringChunk } from "drizzle-orm";

/** What `sqlText` asks drizzle for a piece it does not write itself. */
export interface Dialect {
  sqlToQuery(query: SQL): { sql: string; params: unknown[] };
}

interface Out {
  sql: string;
  params: unknown[];
  dialect: Dialect;
}

/**
 * A `sql` template's text and parameters, as drizzle's `dialect.sqlToQuery` writes them, for
 * the statements the order path sends (`executePrepared`). drizzle's own builder is general
 * (inlined values, placeholders, subqueries) and asks every piece what it is through its
 * prototype chain, building a small object per piece: for the placement's read (about 5,500
 * characters, some 300 pieces) that was a third of everything the server allocated per order.
 * This one appends text, values and lists of values, and asks drizzle for the text of any other
 * piece without values of its own (a table, a column, a name). `undefined` when a template holds
 * something else (a placeholder, an inlined template, a value that turns into SQL, a subquery):
 * the caller then asks drizzle for the whole. `sql-text.test.ts` checks that both write the same.
 */
export function sqlText(
  query: SQL,
  dialect: Dialect,
): { sql: string; params: unknown[] } | undefined {
  const out: Out = { sql: "", params: [], dialect };
  return write(query, out) ? { sql: out.sql, params: out.params } : undefined;
}

function write(query: SQL, out: Out): boolean {
  // Inlined values are drizzle's to write (`shouldInlineParams` is not in its public types).
  if ((query as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
  for (const chunk of query.queryChunks as unknown[]) {
    if (!writeChunk(chunk, out)) return false;
  }
  return true;
}

function writeChunk(chunk: unknown, out: Out): boolean {
  if (chunk === undefined) return true;
  if (chunk === null || (typeof chunk !== "object" && typeof chunk !== "function")) {
    return value(chunk, out);
  }
  if (chunk instanceof StringChunk) {
    out.sql += chunk.value.length === 1 ? chunk.value[0] : chunk.value.join("");
    return true;
  }
  if (chunk instanceof SQL) return write(chunk, out);
  if (chunk instanceof Param) {
    if (chunk.value === null) return value(null, out);
    const mapped: unknown = chunk.encoder.mapToDriverValue(chunk.value);
    return isPlainValue(mapped) && value(mapped, out);
  }
  if (Array.isArray(chunk)) {
    out.sql += "(";
    for (let i = 0; i < chunk.length; i++) {
      if (i > 0) out.sql += ", ";
      if (!writeChunk(chunk[i], out)) return false;
    }
    out.sql += ")";
    return true;
  }
  // A Date, a Buffer or a plain object is a value.
  if (isPlainValue(chunk)) return value(chunk, out);
  // One of drizzle's own (a table, a column, a name…): its text as drizzle writes it, when it
  // has no values of its own (they would be numbered from $1).
  const alone = out.dialect.sqlToQuery(new SQL([chunk as SQL]));
  if (alone.params.length > 0) return false;
  out.sql += alone.sql;
  return true;
}

function value(v: unknown, out: Out): true {
  out.params.push(v);
  out.sql += `$${out.params.length}`;
  return true;
}

/** Not one of drizzle's entities (they name their kind on their class), nor anything with SQL. */
function isPlainValue(v: unknown): boolean {
  if (v === null || typeof v !== "object") return typeof v !== "function";
  const kind = (v.constructor as unknown as Record<symbol, unknown> | undefined)?.[entityKind];
  return kind === undefined && typeof (v as { getSQL?: unknown }).getSQL !== "function";
}
