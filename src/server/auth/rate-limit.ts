import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/database";

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/**
 * Fixed-window counters in PostgreSQL, so the limits hold across every server process. One
 * atomic upsert per hit: concurrent requests cannot all slip past a stale count.
 */
export function createRateLimiter(db: DbOrTx) {
  return {
    async hit(key: string, max: number, windowSeconds: number): Promise<RateLimitResult> {
      const result = await db.execute<{ count: number; retry_after: number }>(sql`
        insert into rate_limit (key, window_start, count) values (${key}, now(), 1)
        on conflict (key) do update set
          window_start = case when rate_limit.window_start <= now() - make_interval(secs => ${windowSeconds})
            then now() else rate_limit.window_start end,
          count = case when rate_limit.window_start <= now() - make_interval(secs => ${windowSeconds})
            then 1 else rate_limit.count + 1 end
        returning count,
          ceil(extract(epoch from window_start + make_interval(secs => ${windowSeconds}) - now()))::int as retry_after`);
      const row = result.rows[0];
      if (Math.random() < 0.01) {
        await db.execute(sql`delete from rate_limit where window_start < now() - interval '1 day'`);
      }
      return { allowed: (row?.count ?? 0) <= max, retryAfter: Math.max(1, row?.retry_after ?? 1) };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
