import type PgBoss from "pg-boss";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { sql } from "../db/sql";
import type { VatCheck } from "../../contract/companies";
import { countryOfVatPrefix, EU_VAT_FORMATS, isEuCountry } from "../../contract/vat-ids";
import type { Db, DbOrTx } from "../db/database";
import type { JobQueue } from "../jobs/queue";
import { type Clock, systemClock } from "../clock";
import type { ViesAnswer, ViesClient } from "../vies/client";
import { companies, companyVatChecks } from "./tables";

/**
 * EU VAT numbers checked against VIES (docs/tax.md "VIES"): when one is recorded (a job on the
 * store's queue, retried with backoff while VIES does not answer) and again when its last answer
 * is older than `RECHECK_AFTER_DAYS` (the recurring sweep). What an answer changes:
 * - valid: kept with its date, consultation number and the trader's name; the number counts as
 *   checked (`companies.tax_id_validated_at` set, if VIES had said otherwise before);
 * - invalid: kept likewise, and the number no longer counts as checked (`tax_id_validated_at`
 *   null), so new orders are not reverse-charged (tax/rules.ts) until VIES confirms it again;
 * - unanswered: nothing changes (the format check holds); why is kept, and it is tried again.
 */

/** The job queue's queue of checks: one job per check, `{ companyId, vatId }`. */
export const VAT_CHECK_QUEUE = "vat-checks";

/** A job's tries: the first and 5 retries, 1, 2, 4, 8 and 16 minutes apart (about half an hour). */
const queueOptions = {
  name: VAT_CHECK_QUEUE,
  retryLimit: 5,
  retryDelay: 60,
  retryBackoff: true,
  // Longer than a VIES call can take (VIES_TIMEOUT_SECONDS ≤ 20 s) and its writes.
  expireInSeconds: 120,
  retentionMinutes: 24 * 60,
};

/** An answer older than this is asked again (the "monthly" re-check). */
export const RECHECK_AFTER_DAYS = 30;
/** A number still unanswered is asked again by the sweep once its last try is this old. */
const UNANSWERED_AGAIN_MS = 6 * 60 * 60 * 1000;
/** A number never tried this long after it was recorded was not queued (the queue was away). */
const NEVER_TRIED_AFTER_MS = 10 * 60 * 1000;
/** The most checks one sweep queues (the rest wait for the next). */
const SWEEP_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

type Row = typeof companyVatChecks.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** A row as the contract says it (`VatCheck`). */
export function toVatCheck(r: Row): VatCheck {
  return {
    vatId: r.vatId,
    status: r.answer ?? (r.lastFailure ? "unanswered" : "pending"),
    checkedAt: iso(r.answeredAt),
    consultationNumber: r.consultationNumber,
    viesName: r.viesName,
    viesAddress: r.viesAddress,
    lastAttemptAt: iso(r.lastAttemptAt),
    lastFailure: r.lastFailure,
  };
}

/** A company's VIES check, or null (no EU VAT number, or checks off). */
export async function vatCheckOf(tx: DbOrTx, companyId: string): Promise<VatCheck | null> {
  const [row] = await tx
    .select()
    .from(companyVatChecks)
    .where(eq(companyVatChecks.companyId, companyId));
  return row ? toVatCheck(row) : null;
}

/** The company's tax id changed other than through its tax status: its VIES check goes. */
export async function forgetVatCheck(tx: DbOrTx, companyId: string): Promise<void> {
  await tx.delete(companyVatChecks).where(eq(companyVatChecks.companyId, companyId));
}

/** Whether a stored tax id is an EU VAT number VIES can be asked about. */
const isEuVatId = (taxId: string | null, country: string | null) =>
  !!taxId && isEuCountry(country) && countryOfVatPrefix(taxId.slice(0, 2)) === country;

export function createVatChecks(
  db: Db,
  opts: {
    /** Null: VIES_URL=off (no look-up; numbers are checked for their form only). */
    vies: ViesClient | null;
    queue: JobQueue;
    log: {
      info(obj: object, msg: string): void;
      warn(obj: object, msg: string): void;
      error(obj: object, msg: string): void;
    };
    now?: Clock;
  },
) {
  const { vies, queue, log } = opts;
  const now = opts.now ?? systemClock;
  let workers: string[] = [];

  if (vies) {
    queue.setUp(async (boss) => {
      await boss.createQueue(VAT_CHECK_QUEUE, queueOptions);
      await boss.updateQueue(VAT_CHECK_QUEUE, queueOptions);
    });
    queue.alongside(async (boss) => {
      const worker = await boss.work<{ companyId: string; vatId: string }>(
        VAT_CHECK_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: 2 },
        async ([job]) => {
          if (!job) return;
          const outcome = await check(job.data.companyId, job.data.vatId);
          // Thrown, so pg-boss tries again later (with backoff, a bounded number of times).
          if (outcome.kind === "unanswered") {
            throw new Error(`VIES did not answer: ${outcome.reason}`);
          }
        },
      );
      workers = [worker];
      return workers;
    });
  }

  /** Queues a check of the company's number (after the commit that recorded it). */
  async function queueCheck(companyId: string, vatId: string): Promise<void> {
    if (!vies) return;
    let boss: PgBoss;
    try {
      boss = await queue.ready();
      await boss.send(VAT_CHECK_QUEUE, { companyId, vatId });
    } catch (err) {
      // Not queued: the row waits unanswered, and the sweep queues it.
      log.warn({ err, companyId }, "a VIES check was not queued: the sweep will queue it");
      return;
    }
    for (const w of workers) boss.notifyWorker(w);
  }

  /**
   * Asks VIES about the company's number once and records the answer (or why there was none).
   * A number changed since the check was queued is left alone ("stale").
   */
  async function check(
    companyId: string,
    vatId: string,
  ): Promise<ViesAnswer | { kind: "stale" | "off" }> {
    if (!vies) return { kind: "off" };
    const [row] = await db
      .select({ vatId: companyVatChecks.vatId })
      .from(companyVatChecks)
      .where(eq(companyVatChecks.companyId, companyId));
    if (row?.vatId !== vatId) return { kind: "stale" };
    const answer = await vies.check(vatId);
    const at = now();
    await db.transaction(async (tx) => {
      const sameNumber = and(
        eq(companyVatChecks.companyId, companyId),
        eq(companyVatChecks.vatId, vatId),
      );
      if (answer.kind === "unanswered") {
        await tx
          .update(companyVatChecks)
          .set({ lastAttemptAt: at, lastFailure: answer.reason })
          .where(sameNumber);
        return;
      }
      const written = await tx
        .update(companyVatChecks)
        .set({
          answer: answer.kind,
          answeredAt: answer.checkedAt,
          consultationNumber: answer.consultationNumber,
          viesName: answer.name,
          viesAddress: answer.address,
          lastAttemptAt: at,
          lastFailure: null,
        })
        .where(sameNumber)
        .returning({ companyId: companyVatChecks.companyId });
      if (written.length === 0) return; // changed meanwhile
      // The number counts as checked while VIES does not say otherwise (docs/tax.md "VIES").
      const [company] = await tx
        .select({
          taxId: companies.taxId,
          country: companies.taxIdCountry,
          validatedAt: companies.taxIdValidatedAt,
        })
        .from(companies)
        .where(eq(companies.id, companyId))
        .for("no key update");
      if (!company || company.taxId !== vatId || !isEuVatId(company.taxId, company.country)) {
        return;
      }
      if (answer.kind === "invalid" && company.validatedAt !== null) {
        await tx
          .update(companies)
          .set({ taxIdValidatedAt: null })
          .where(eq(companies.id, companyId));
      } else if (answer.kind === "valid" && company.validatedAt === null) {
        await tx.update(companies).set({ taxIdValidatedAt: at }).where(eq(companies.id, companyId));
      }
    });
    if (answer.kind === "unanswered") {
      log.warn({ companyId, vatId, reason: answer.reason }, "VIES did not answer");
    } else if (answer.kind === "invalid") {
      log.info({ companyId, vatId }, "VIES says a company's VAT number is not valid");
    }
    return answer;
  }

  return {
    /** Whether VIES is asked at all (VIES_URL is not `off`). */
    enabled: vies !== null,

    /**
     * In the transaction that records a company's tax id: an EU VAT number that changed gets a
     * fresh row (not asked yet); another id, or none, has none. Answers whether to queue a check
     * after the commit (`queueCheck`): a new number, or one VIES has not confirmed (asked again).
     */
    async recorded(tx: DbOrTx, companyId: string, vatId: string | null): Promise<boolean> {
      if (!vies || vatId === null) {
        await forgetVatCheck(tx, companyId);
        return false;
      }
      const [before] = await tx
        .select()
        .from(companyVatChecks)
        .where(eq(companyVatChecks.companyId, companyId));
      if (before?.vatId === vatId) return before.answer !== "valid";
      await forgetVatCheck(tx, companyId);
      await tx.insert(companyVatChecks).values({ companyId, vatId });
      return true;
    },

    queueCheck,
    check,
    vatCheckOf,

    /**
     * The admin's "Check again now": asks VIES here and now (within its timeout) and answers what
     * it said; unanswered, a job tries again later.
     */
    async checkNow(companyId: string, vatId: string) {
      const outcome = await check(companyId, vatId);
      if (outcome.kind === "unanswered") await queueCheck(companyId, vatId);
      return outcome;
    },

    /**
     * The recurring re-check: queues a check of every number answered more than
     * `RECHECK_AFTER_DAYS` ago, and of every number still unanswered whose last try is a while
     * old (or was never queued). Answers how many it queued.
     */
    async sweep(): Promise<number> {
      if (!vies) return 0;
      const t = now().getTime();
      // EU VAT numbers recorded while checks were off (or before them) get their row, due now.
      await db.execute(sql`
        insert into company_vat_checks (company_id, vat_id, created_at)
        select c.id, c.tax_id, ${new Date(t - NEVER_TRIED_AFTER_MS - 1000)}::timestamptz
          from companies c
         where c.tax_id is not null and c.tax_id_validated_at is not null
           and c.tax_id_country in (${sql.join(
             Object.keys(EU_VAT_FORMATS).map((c) => sql`${c}`),
             sql`, `,
           )})
           and not exists (select 1 from company_vat_checks v where v.company_id = c.id)
        on conflict do nothing`);
      const due = await db
        .select({ companyId: companyVatChecks.companyId, vatId: companyVatChecks.vatId })
        .from(companyVatChecks)
        .where(
          or(
            lt(companyVatChecks.answeredAt, new Date(t - RECHECK_AFTER_DAYS * DAY_MS)),
            and(
              isNull(companyVatChecks.answeredAt),
              or(
                lt(companyVatChecks.lastAttemptAt, new Date(t - UNANSWERED_AGAIN_MS)),
                and(
                  isNull(companyVatChecks.lastAttemptAt),
                  lt(companyVatChecks.createdAt, new Date(t - NEVER_TRIED_AFTER_MS)),
                ),
              ),
            ),
          ),
        )
        .orderBy(sql`${companyVatChecks.answeredAt} asc nulls first`)
        .limit(SWEEP_BATCH);
      if (due.length === 0) return 0;
      const boss = await queue.ready();
      for (const d of due) await boss.send(VAT_CHECK_QUEUE, d, { singletonKey: d.companyId });
      for (const w of workers) boss.notifyWorker(w);
      return due.length;
    },
  };
}

export type VatChecks = ReturnType<typeof createVatChecks>;
