import { type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/**
 * One fixed-window hit as two entries of a statement's top-level `with` (data-modifying queries
 * may only stand there), for a statement that does other things too: checkout counts a placement
 * in the statement that locks the customer. `name` is then a query of one row, `count` and
 * `retry_after`. With `after` (a query), the hit is made only once that query has given its row,
 * so whatever it locks is locked first. Old windows are forgotten by a job
 * (`rateLimitCleanupJob`), not by the hits.
 */
export function rateHitCtes(
  name: string,
  key: string,
  windowSeconds: number,
  opts: { after?: SQL } = {},
): SQL {
  const expired = sql`rate_limit.window_start <= now() - make_interval(secs => ${windowSeconds})`;
  return sql`${sql.identifier(name)} as (
      insert into rate_limit (key, window_start, count)
      select ${key}, now(), 1 ${opts.after ? sql`from (${opts.after}) as after_this` : sql``}
      on conflict (key) do update set
        window_start = case when ${expired} then now() else rate_limit.window_start end,
        count = case when ${expired} then 1 else rate_limit.count + 1 end
      returning count,
        ceil(extract(epoch from window_start + make_interval(secs => ${windowSeconds}) - now()))::int
          as retry_after
    )`;
}

/** What a hit's row (`rateHitCtes`) says against a limit of `max` per window. */
export function rateHitResult(
  row: { count: number; retry_after: number } | undefined,
  max: number,
): RateLimitResult {
  return { allowed: (row?.count ?? 0) <= max, retryAfter: Math.max(1, row?.retry_after ?? 1) };
}

/**
 * Fixed-window counters in PostgreSQL, so the limits hold across every server process. One
 * atomic upsert per hit: concurrent requests cannot all slip past a stale count.
 */
export function createRateLimiter(db: DbOrTx) {
  return {
    async hit(key: string, max: number, windowSeconds: number): Promise<RateLimitResult> {
      const result = await db.execute<{ count: number; retry_after: number }>(
        sql`with ${rateHitCtes("hit", key, windowSeconds)} select count, retry_after from hit`,
      );
      return rateHitResult(result.rows[0], max);
    },

    /**
     * Growing delays: the first `free` attempts go through at once; after that each attempt must
     * wait 2, 4, 8 … seconds (at most `maxDelaySeconds`) after the previous one that went through.
     * A refused attempt does not count, so waiting is always enough; a day of quiet forgets all.
     */
    async backoff(key: string, free: number, maxDelaySeconds: number): Promise<RateLimitResult> {
      const delay = (count: unknown) =>
        sql`make_interval(secs => least(${maxDelaySeconds}, case when ${count} < ${free} then 0 else power(2, ${count} - ${free} + 1) end))`;
      // An attempt is timed at the later of its statement's start and the last attempt that went
      // through: one that began first but waited for the row is not "before" it (that refused
      // sign-ins at the same moment within the free attempts). `prev` is the row as this attempt
      // found it (locked: the latest version); the attempt went through if it moved the row.
      const at = sql`greatest(now(), rate_limit.window_start)`;
      const due = sql`rate_limit.window_start + ${delay(sql`rate_limit.count`)} <= ${at}`;
      const result = await db.execute<{ went_through: boolean; retry_after: number }>(sql`
        with prev as (
          select count, window_start from rate_limit where key = ${key} for update
        ),
        attempt as (
          -- From prev: it is read (and locked) before this writes (a row this statement has
          -- written, it would no longer find).
          insert into rate_limit (key, window_start, count)
          select ${key}, now(), 1 from (select count(*) from prev) as read_first
          on conflict (key) do update set
            count = case
              when rate_limit.window_start <= now() - interval '1 day' then 1
              when ${due} then rate_limit.count + 1
              else rate_limit.count end,
            window_start = case
              when rate_limit.window_start <= now() - interval '1 day' then now()
              when ${due} then ${at}
              else rate_limit.window_start end
          returning count, window_start
        )
        select not exists (select 1 from prev)
                 or (a.count, a.window_start) is distinct from (p.count, p.window_start)
                 as went_through,
          ceil(extract(epoch from a.window_start + ${delay(sql`a.count`)} - now()))::int
            as retry_after
        from attempt a left join prev p on true`);
      const row = result.rows[0];
      return { allowed: row?.went_through ?? true, retryAfter: Math.max(1, row?.retry_after ?? 1) };
    },

    /**
     * Spaced out, never counted out: up to `burst` at once, then one every `spacingSeconds`,
     * whoever asks (a bucket that refills continuously: a "generic cell rate" check). The
     * row's `window_start` is when the bucket is full again; an attempt goes through while that
     * is at most `burst` − 1 spacings ahead, and moves it one spacing on. A refused attempt
     * moves nothing, so the next one always goes through once a spacing has passed.
     */
    async spaced(key: string, burst: number, spacingSeconds: number): Promise<RateLimitResult> {
      const spacing = sql`make_interval(secs => ${spacingSeconds})`;
      const result = await db.execute<{ full_at: Date }>(sql`
        insert into rate_limit as r (key, window_start, count) values (${key}, now() + ${spacing}, 1)
        on conflict (key) do update set
          window_start = greatest(r.window_start, now()) + ${spacing},
          count = r.count + 1
        where r.window_start <= now() + ${spacing} * ${burst - 1}
        returning window_start as full_at`);
      if (result.rows.length > 0) return { allowed: true, retryAfter: 1 };
      return { allowed: false, retryAfter: Math.max(1, Math.ceil(spacingSeconds)) };
    },

    /** Forgets a key (a successful sign-in ends its delays). */
    async reset(key: string): Promise<void> {
      await db.execute(sql`delete from rate_limit where key = ${key}`);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * Forgets the counters whose window started more than a day ago (every limit's window, and a
 * growing delay's longest, is shorter): the table holds only what can still refuse someone.
 * Answers how many were forgotten.
 */
export async function forgetOldRateWindows(db: DbOrTx): Promise<number> {
  const result = await db.execute(
    sql`delete from rate_limit where window_start < now() - interval '1 day'`,
  );
  return result.rowCount ?? 0;
}
