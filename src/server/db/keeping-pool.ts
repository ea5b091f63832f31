import pg from "pg";

/**
 * Whether a failed statement left its connection as good as before: PostgreSQL answered it with
 * an error (a constraint, a refused placement's 40001, a statement or lock timeout) and is ready
 * for the next one. A lost connection, or an error that ends the session (FATAL, PANIC), is not.
 */
export function connectionSurvives(err: unknown): boolean {
  return err instanceof pg.DatabaseError && err.severity !== "FATAL" && err.severity !== "PANIC";
}

/**
 * node-postgres' pool, except that `pool.query` keeps its connection when the statement failed
 * but the connection did not (`connectionSurvives`). pg-pool hands every failed statement's error
 * to `release`, which closes the connection: a new one then costs PostgreSQL a process and a
 * password check, and the store every named statement it had prepared on it. Under an overload
 * of orders that was most of the work: the placement's own refusal (SQLSTATE 40001, "the customer
 * or the stock changed since the placement read them", taken again under lock) came 32 times a
 * second, each closing a connection (issue 49, finding 10; bench/README.md).
 */
export class KeepingPool extends pg.Pool {
  // The promise form is what drizzle and the store use; the callback form is pg-pool's own.
  override query(...args: unknown[]): never {
    const [config, values, callback] = args;
    if (typeof values === "function" || typeof callback === "function") {
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    return this.connect().then(async (client) => {
      try {
        const result = await client.query(config as pg.QueryConfig, values as unknown[]);
        client.release();
        return result;
      } catch (err) {
        client.release(connectionSurvives(err) ? undefined : (err as Error));
        throw err;
      }
    }) as never;
  }
}
