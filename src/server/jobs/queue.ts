import PgBoss from "pg-boss";
import { unavailable } from "../errors";

/** pg-boss keeps its tables in a schema of its own (not a drizzle migration of ours). */
export const JOB_SCHEMA = "pgboss";

/** How long a caller waits for the queue when it is still starting (the database was away). */
const READY_TIMEOUT_MS = 5_000;

/** Starts a queue's workers on a started pg-boss and answers their ids (`recurringJob`'s result). */
export type JobStarter = (boss: PgBoss) => Promise<string[]>;

export interface JobQueue {
  /**
   * A step run on every start of pg-boss before the queue counts as ready: the mail outbox's
   * queue and its senders (`mail/mailer.ts`). Added before `start`.
   */
  setUp(step: (boss: PgBoss) => Promise<void>): void;
  /**
   * Started once the queue is ready, never holding it up (they may wait for the app to be
   * ready): the recurring jobs (`recurring.ts`). Added before `start`.
   */
  alongside(starter: JobStarter): void;
  /** Starts pg-boss in the background, retried with backoff while the database is away. */
  start(): void;
  /** The started pg-boss, or 503 when it is still not there after a while (the database away). */
  ready(): Promise<PgBoss>;
  /** Whether `stop` was called (workers stop asking for more). */
  readonly stopping: boolean;
  /** Waits for the jobs being run (a message being sent) and closes the queue's connections. */
  stop(): Promise<void>;
}

/**
 * The store's one job queue: pg-boss in PostgreSQL (decision 012), shared by the mail outbox and
 * the recurring jobs. A database that is away when the store starts delays the queue (retried
 * with backoff), not the store; a failed pg-boss cannot be started again, so each attempt makes
 * a new one.
 */
export function createJobQueue(opts: {
  databaseUrl: string;
  log: {
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}): JobQueue {
  const steps: ((boss: PgBoss) => Promise<void>)[] = [];
  const starters: JobStarter[] = [];
  let stopping = false;
  let retryTimer: NodeJS.Timeout | undefined;
  /** Ends the wait before the next start attempt (stop() calls it). */
  let wake = () => {};
  let startersRunning: Promise<unknown> = Promise.resolve();
  let started: Promise<PgBoss> | undefined;

  async function startBoss(attempt = 0): Promise<PgBoss> {
    const boss = new PgBoss({
      connectionString: opts.databaseUrl,
      schema: JOB_SCHEMA,
      max: 4,
      application_name: "partsworks-jobs",
      // No cron jobs here: the clock monitor and cron workers stay off.
      schedule: false,
    });
    // pg-boss reports its background failures (maintenance, a worker's fetch) here; without a
    // listener an EventEmitter's "error" would throw. Logged, never thrown: it retries itself.
    boss.on("error", (err) => {
      try {
        opts.log.error({ err }, "job queue error");
      } catch {
        // A logger that fails has nowhere to say so.
      }
    });
    try {
      await boss.start();
      for (const step of steps) await step(boss);
      // Started alongside; stop() waits for them before stopping pg-boss.
      startersRunning = Promise.all(
        starters.map((starter) =>
          starter(boss).catch((err: unknown) => {
            if (!stopping) opts.log.error({ err }, "a job queue did not start");
          }),
        ),
      );
      return boss;
    } catch (err) {
      void boss.stop({ graceful: false, wait: false }).catch(() => {});
      if (stopping) throw err;
      const delayMs = Math.min(30_000, 1_000 * 2 ** attempt);
      opts.log.warn({ err, retryInMs: delayMs }, "job queue not started: retrying");
      await new Promise<void>((resolve) => {
        wake = resolve;
        retryTimer = setTimeout(resolve, delayMs);
        retryTimer.unref();
      });
      if (stopping) throw err;
      return startBoss(attempt + 1);
    }
  }

  /** A step or starter added once started would never run on this start: refused at once. */
  const beforeStart = (what: string) => {
    if (started)
      throw new Error(`${what} added to the job queue after it started: it would never run`);
  };
  return {
    setUp: (step) => {
      beforeStart("A set-up step");
      steps.push(step);
    },
    alongside: (starter) => {
      beforeStart("A starter");
      starters.push(starter);
    },
    start() {
      started ??= startBoss();
      // A start that ends in a stop is awaited there; nobody else may be waiting for it.
      started.catch(() => {});
    },
    async ready() {
      if (!started) throw unavailable();
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        started,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(unavailable()), READY_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
    },
    get stopping() {
      return stopping;
    },
    async stop() {
      stopping = true;
      clearTimeout(retryTimer);
      wake();
      const boss = await started?.catch(() => undefined);
      await startersRunning;
      await boss?.stop({ graceful: true, wait: true, timeout: 15_000 });
    },
  };
}
