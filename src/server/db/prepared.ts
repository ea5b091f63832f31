import { createHash } from "node:crypto";
import type { SQL } from "drizzle-orm";
import type { QueryResult, QueryResultRow } from "pg";
import type { DbOrTx } from "./database";
import { sqlText } from "./sql-text";

/**
 * Pools, and their connections, that reach PostgreSQL itself: on them a statement may be named
 * (prepared once per connection, its plan kept). Behind a transaction pooler (PgBouncer 1.18) the
 * next statement may run on another server connection, which does not know the name: those pools
 * are never marked, and their statements stay unnamed (decision 014).
 */
const preparing = new WeakSet<object>();

/** Marks a pool that reaches PostgreSQL directly, and each connection it opens. */
export function prepareStatementsOn(pool: {
  on(event: "connect", listener: (client: object) => void): unknown;
}): void {
  preparing.add(pool);
  pool.on("connect", (client) => preparing.add(client));
}

/** Whether statements sent through `poolOrClient` may be named (see above). */
export const mayNameStatements = (poolOrClient: object): boolean => preparing.has(poolOrClient);

/** What `execute` uses of drizzle's database and transaction objects (not in its public types). */
interface DrizzleInternals {
  session: {
    client: object;
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      isResponseInArrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
}

/**
 * `db.execute(query)`, as a named statement where the connection allows it. Parsing and planning
 * the order path's statements cost PostgreSQL more than running them (3.9 ms against 3.1 for one
 * placement, measured with EXPLAIN ANALYZE): a named statement is parsed once per connection and,
 * after its first few runs, planned once (PostgreSQL's generic plan). The name is the text's hash,
 * so every variant of a statement has its own; the values are always parameters, never in the
 * text (`prepared.test.ts` checks that two placements use the same names).
 */
export function executePrepared<T extends QueryResultRow>(
  db: DbOrTx,
  query: SQL,
): Promise<QueryResult<T>> {
  const { session, dialect } = db as unknown as DrizzleInternals;
  const built = sqlText(query, dialect) ?? dialect.sqlToQuery(query);
  const name = mayNameStatements(session.client) ? namedFor(built.sql) : undefined;
  return session.prepareQuery(built, undefined, name, false).execute() as Promise<QueryResult<T>>;
}

/**
 * The name for a query builder's `.prepare(name)`: `name` where statements may be named on `db`'s
 * connections, "" (unnamed: parsed and planned each time) behind a transaction pooler.
 */
export function builderStatementName(db: DbOrTx, name: string): string {
  return mayNameStatements((db as unknown as DrizzleInternals).session.client) ? name : "";
}

export const statementName = (text: string) =>
  `s_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;

/**
 * `statementName`, remembered by text: the statements are few (a shape each), and comparing a
 * text with one remembered costs less than hashing it again for every request.
 */
const names = new Map<string, string>();
const MAX_NAMES = 1000;
function namedFor(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) names.clear();
    name = statementName(text);
    names.set(text, name);
  }
  return name;
}
