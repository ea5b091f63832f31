import { sql as drizzleSql, SQL, StringChunk, type SQLChunk } from "drizzle-orm";

/**
 * drizzle's `sql` template tag, with its text pieces made once per template. A template's strings
 * are the same object every time its line runs, so their chunks are kept with it; drizzle's own
 * tag makes a chunk (and an array for it) per piece, per call, which was a sixth of what the server
 * allocated per order once `sqlText` had removed the building of the text. Everything else is
 * drizzle's (`sql.raw`, `sql.join`, `sql.identifier`…), and the result is drizzle's `SQL`.
 * The server imports `sql` from here (eslint.config.js says so).
 */
export const sql: typeof drizzleSql = Object.assign(function sql(
  strings: TemplateStringsArray,
  ...params: SQLChunk[]
): SQL {
  let texts = textChunks.get(strings);
  if (!texts) {
    texts = strings.map((s) => new StringChunk(s));
    textChunks.set(strings, texts);
  }
  // As drizzle's tag: the first text is left out only when it is the whole, empty template.
  const chunks: SQLChunk[] = params.length > 0 || strings[0] !== "" ? [texts[0]!] : [];
  for (let i = 0; i < params.length; i++) chunks.push(params[i], texts[i + 1]!);
  return new SQL(chunks);
}, drizzleSql) as typeof drizzleSql;

const textChunks = new WeakMap<TemplateStringsArray, StringChunk[]>();

export type { SQL } from "drizzle-orm";
