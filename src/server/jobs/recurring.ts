import type PgBoss from "pg-boss";
import type { JobStarter } from "./queue";

/**
 * A piece of work that runs every `everyMs` across every process of the store, as a pg-boss job
 * (decision 012). Its queue is "stately" with one key: at most one run waits and one runs, in
 * all the processes together. Each run first queues the next one (`startAfter`), so the chain
 * goes on; every process queues one when it starts (a repeat is dropped), which restarts a chain
 * that broke (the database away while a run ended). A run that throws is logged and retried.
 *
 * Resolves to a function that starts it on a started pg-boss and answers its worker ids.
 */
export function recurringJob(
  queue: string,
  opts: {
    everyMs: number;
    /** What the log calls it ("hold sweeper"). */
    name: string;
    log: { error(obj: object, msg: string): void };
  },
  run: () => Promise<void>,
): (boss: PgBoss) => Promise<string[]> {
  const everySeconds = Math.max(1, Math.round(opts.everyMs / 1000));
  return async (boss) => {
    // Processes starting together may deadlock creating the queue, and a first send beside other
    // queues being created has once found no partition for its row: both are tried again.
    await withRetries(() =>
      boss.createQueue(queue, {
        name: queue,
        policy: "stately",
        retryLimit: 1_000_000,
        retryDelay: everySeconds,
        expireInSeconds: 300,
        retentionMinutes: 60,
      }),
    );
    const queueNext = (startAfter: number) =>
      boss.send(queue, {}, { singletonKey: queue, startAfter });
    const worker = await boss.work(
      queue,
      { batchSize: 1, pollingIntervalSeconds: Math.min(everySeconds, 5) },
      async () => {
        await queueNext(everySeconds);
        try {
          await run();
        } catch (err) {
          opts.log.error({ err }, `${opts.name} failed`);
          throw err;
        }
      },
    );
    await withRetries(() => queueNext(0));
    return [worker];
  };
}

/** Runs `fn`, trying again up to five times (0.2 s, 0.4 s, … 3.2 s apart, with some jitter). */
async function withRetries<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt + Math.random() * 200));
    }
  }
}

/**
 * A recurring job whose run answers how many things it did (rows swept, emails queued): the log
 * says so, in `did`'s words, when there were any.
 */
export function countingJob(
  queue: string,
  opts: {
    everyMs: number;
    name: string;
    log: JobLog;
  },
  run: () => Promise<number>,
  did: (n: number) => string,
): (boss: PgBoss) => Promise<string[]> {
  return recurringJob(queue, opts, async () => {
    const n = await run();
    if (n > 0) opts.log.info(did(n));
  });
}

/** The log a recurring job writes to: what a run did, and a run that failed. */
export interface JobLog {
  info(msg: string): void;
  error(obj: object, msg: string): void;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * An hourly countingJob, once across every process, that calls a module's `sweep()` (answering
 * how many rows it cleaned up), logged in `did`'s words.
 */
export function hourlySweepJob(
  queue: string,
  name: string,
  module: { sweep(): Promise<number> },
  log: JobLog,
  did: (n: number) => string,
): (boss: PgBoss) => Promise<string[]> {
  return countingJob(queue, { everyMs: HOUR_MS, name, log }, () => module.sweep(), did);
}

/**
 * The store's recurring jobs, on the store's job queue (`queue.ts`, decision 012): added while the app is
 * built (each needs services made along the way), started once it is ready, never once it is
 * closing. `starter` is what the queue runs when it has started.
 */
export function createRecurringJobs() {
  const jobs: JobStarter[] = [];
  let ready: () => void = () => {};
  const readyToStart = new Promise<void>((resolve) => (ready = resolve));
  let closing = false;
  return {
    add(job: JobStarter): void {
      jobs.push(job);
    },
    starter: (async (boss) => {
      await readyToStart;
      if (closing) return [];
      return (await Promise.all(jobs.map((job) => job(boss)))).flat();
    }) satisfies JobStarter,
    /** The app is ready: the queue may start them. */
    start: () => ready(),
    /** The app is closing: none starts (and a waiting start ends, so the queue's stop need not wait). */
    close(): void {
      closing = true;
      ready();
    },
  };
}
