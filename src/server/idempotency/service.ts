import type { DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { IDEMPOTENCY_KEY_HOURS } from "../../contract/idempotency";

/** A key's row as a request with the same key finds it. */
export interface KeyRecord {
  route: string;
  requestHash: string;
  state: "running" | "done" | "unknown";
  statusCode: number | null;
  response: string | null;
  /** How long ago it was claimed, in milliseconds (PostgreSQL's clock, as `created_at`). */
  ageMs: number;
}

/** Which customer's key, on which route, for which request. */
export interface KeyClaim {
  userId: string;
  key: string;
  route: string;
  requestHash: string;
}

const KEPT = `${IDEMPOTENCY_KEY_HOURS} hours`;

/**
 * The `idempotency_keys` table (docs/idempotency.md): a claim is one statement that either makes
 * the row (the request runs) or finds the row another request made (its answer, or a wait).
 * A row past its 24 hours is as good as gone: a claim takes it over, and the hourly sweep
 * deletes it.
 */
export function createIdempotencyKeys(db: DbOrTx) {
  const read = async (userId: string, key: string): Promise<KeyRecord | undefined> => {
    const { rows } = await db.execute<{
      route: string;
      request_hash: string;
      state: KeyRecord["state"];
      status_code: number | null;
      response: string | null;
      age_ms: number;
    }>(sql`
      select route, request_hash, state, status_code, response,
             (extract(epoch from now() - created_at) * 1000)::float8 as age_ms
        from idempotency_keys
       where user_id = ${userId} and key = ${key} and expires_at > now()`);
    const row = rows[0];
    return row
      ? {
          route: row.route,
          requestHash: row.request_hash,
          state: row.state,
          statusCode: row.status_code,
          response: row.response,
          ageMs: Number(row.age_ms),
        }
      : undefined;
  };

  return {
    /**
     * Claims the key for this request: true when it is now this request's (`running`), false
     * when another request holds it (read it with `read`).
     */
    async claim(c: KeyClaim): Promise<boolean> {
      const { rows } = await db.execute(sql`
        insert into idempotency_keys (user_id, key, route, request_hash, state, expires_at)
        values (${c.userId}, ${c.key}, ${c.route}, ${c.requestHash}, 'running',
                now() + ${KEPT}::interval)
        on conflict (user_id, key) do update
          set route = excluded.route, request_hash = excluded.request_hash, state = 'running',
              status_code = null, response = null, created_at = now(),
              expires_at = excluded.expires_at
          where idempotency_keys.expires_at <= now()
        returning 1`);
      return rows.length > 0;
    },

    read,

    /** The claimed request was answered: its answer is what every later one with the key gets. */
    async finish(userId: string, key: string, statusCode: number, response: string) {
      await db.execute(sql`
        update idempotency_keys set state = 'done', status_code = ${statusCode},
               response = ${response}
         where user_id = ${userId} and key = ${key} and state = 'running'`);
    },

    /** The claimed request did nothing (refused before its work, or failed): the key is free. */
    async release(userId: string, key: string) {
      await db.execute(sql`
        delete from idempotency_keys
         where user_id = ${userId} and key = ${key} and state = 'running'`);
    },

    /**
     * The claimed request failed after its work may have committed: the key is never run again
     * (a request with it is told to look at its orders and use a new key).
     */
    async abandon(userId: string, key: string) {
      await db.execute(sql`
        update idempotency_keys set state = 'unknown'
         where user_id = ${userId} and key = ${key} and state = 'running'`);
    },

    /** Deletes the keys past their 24 hours; how many. */
    async sweep(): Promise<number> {
      const result = await db.execute(sql`delete from idempotency_keys where expires_at <= now()`);
      return result.rowCount ?? 0;
    },
  };
}

export type IdempotencyKeys = ReturnType<typeof createIdempotencyKeys>;
