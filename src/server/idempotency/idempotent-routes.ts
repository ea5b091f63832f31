import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  RouteHandlerMethod,
} from "fastify";
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyMessages,
} from "../../contract/idempotency";
import { commitStage } from "../client-waiting";
import { HttpError } from "../errors";
import { requestHash } from "./request-hash";
import type { IdempotencyKeys, KeyClaim } from "./service";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route takes an `Idempotency-Key` header (docs/idempotency.md): the same key with the
     * same request is answered what the first was answered, and runs once.
     */
    idempotent?: boolean;
  }
}

/** The longest a request waits for another with its key, whatever its route's deadline. */
const MAX_WAIT_MS = 5_000;
/**
 * A claim still running this long after its route's deadline was left by a process that stopped
 * (or by a request whose work outlived its answer): its outcome is not known.
 */
export const STALE_MARGIN_MS = 30_000;
/** A key another request holds is looked at again after 10 ms, then less often, up to 200 ms. */
const FIRST_LOOK_MS = 10;
const LAST_LOOK_MS = 200;

/**
 * Answers that say the route did nothing: no session (or it ended), not allowed, too many
 * requests, the client gone before the commit (499). The key is freed, so a retry runs.
 */
const NOTHING_DONE = new Set([401, 403, 429, 499]);
/**
 * 5xx answers whose error says the database refused the statement or transaction (a locked row
 * waited for too long, a deadlock, a serialization failure, a full disk: error-handler.ts): it
 * rolled back, so nothing of it committed, even after its last check before the commit.
 */
const ROLLED_BACK = new Set(["busy", "insufficient_storage"]);

/** A request's claim of its key, from the claim until its outcome is stored. */
interface Claimed {
  userId: string;
  key: string;
  /** The route places orders: its deadline's 503 means nothing was committed (client-waiting.ts). */
  placesOrder: boolean;
  handler: "running" | "returned" | "threw";
  /** Answered 5xx while its handler still ran: settled once the handler has ended. */
  settleWhenDone: boolean;
  log: FastifyBaseLogger;
}

const claims = new WeakMap<FastifyRequest, Claimed>();

export interface IdempotencyOptions {
  keys: IdempotencyKeys;
  /** REQUEST_TIMEOUT_SECONDS and ORDER_TIMEOUT_SECONDS: they bound a wait and age a claim. */
  requestTimeoutMs: number;
  orderTimeoutMs: number;
}

const headerName = IDEMPOTENCY_KEY_HEADER.toLowerCase();

/**
 * Every route registered on `app` from here on with `config: { idempotent: true }` takes an
 * `Idempotency-Key` (docs/idempotency.md). Its handler is wrapped: without the header it is
 * called as it is, nothing else runs; with one, the key is claimed for the caller (after the
 * guards, the company hook and the body's checks), or the first request's answer is repeated,
 * or the request waits for the first one, or it is refused (400, 409, 422). The claimed
 * request's answer is stored as it is sent (an `onSend` hook), or the key freed when nothing
 * was done, or kept as "outcome unknown" when the work may have committed before a failure.
 */
export function idempotentRoutes(
  app: FastifyInstance,
  opts: IdempotencyOptions,
): { waiting(): number } {
  const { keys } = opts;
  /** Requests of this process waiting for a key, woken when its claim here is settled. */
  const waiters = new Map<string, Set<() => void>>();
  const waitingId = (userId: string, key: string) => `${userId}\n${key}`;

  const wake = (userId: string, key: string) => {
    for (const resolve of [...(waiters.get(waitingId(userId, key)) ?? [])]) resolve();
  };

  /** Resolves after `ms`, or sooner when a claim of the key is settled in this process. */
  const nextLook = (userId: string, key: string, ms: number) =>
    new Promise<void>((resolve) => {
      const id = waitingId(userId, key);
      let set = waiters.get(id);
      if (!set) waiters.set(id, (set = new Set()));
      const waiting = set;
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        if (waiting.size === 0 && waiters.get(id) === waiting) waiters.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiting.add(done);
    });

  /** The claim's outcome, stored; the waiters here are told. A failure is logged, not answered. */
  const settle = async (claimed: Claimed, how: "release" | "abandon" | Answer) => {
    const { userId, key } = claimed;
    try {
      if (how === "release") await keys.release(userId, key);
      else if (how === "abandon") await keys.abandon(userId, key);
      else await keys.finish(userId, key, how.statusCode, how.body);
    } catch (err) {
      // The claim stays running: a retry is told to wait, then that the outcome is unknown. It
      // never runs twice.
      claimed.log.error({ err }, "the Idempotency-Key's outcome could not be stored");
    } finally {
      wake(userId, key);
    }
  };

  /** What a claim whose handler has ended (after its 5xx answer) leaves. */
  const settleLate = (claimed: Claimed, req: FastifyRequest) =>
    settle(
      claimed,
      claimed.handler === "threw" && commitStage(req) !== "committing" ? "release" : "abandon",
    );

  /** Stores the claimed request's answer before it is sent. */
  const storeAnswer: onSendHookHandler = function (req, reply, payload, done) {
    const claimed = claims.get(req);
    if (!claimed) return done(null, payload);
    claims.delete(req);
    const outcome = outcomeOf(claimed, req, reply.statusCode, payload);
    if (outcome === "later") {
      claimed.settleWhenDone = true;
      return done(null, payload);
    }
    void settle(claimed, outcome).then(() => done(null, payload));
  };

  app.addHook("onRoute", (route) => {
    if (route.config?.idempotent !== true) return;
    const placesOrder = route.config.placesOrder === true;
    const deadlineMs = placesOrder
      ? Math.min(opts.requestTimeoutMs, opts.orderTimeoutMs)
      : opts.requestTimeoutMs;
    const name = `${String(route.method)} ${route.url}`;
    const waitMs = Math.min(MAX_WAIT_MS, Math.floor(deadlineMs / 2));
    const staleMs = deadlineMs + STALE_MARGIN_MS;
    const original = route.handler as (
      this: FastifyInstance,
      req: FastifyRequest,
      reply: FastifyReply,
    ) => unknown;

    /**
     * Claims the key, or answers from the request that holds it: undefined once claimed, the
     * first request's record when it is done, null when the deadline answered meanwhile.
     */
    const claimOrWait = async (c: KeyClaim, req: FastifyRequest, reply: FastifyReply) => {
      const until = Date.now() + waitMs;
      let pause = FIRST_LOOK_MS;
      for (;;) {
        // Free (never used, past its 24 hours, or freed by a request that did nothing): claimed.
        if (await keys.claim(c)) return undefined;
        let found = await keys.read(c.userId, c.key);
        while (found) {
          if (found.route !== c.route || found.requestHash !== c.requestHash) throw reused();
          if (found.state === "done") return found;
          if (found.state === "unknown" || found.ageMs > staleMs) throw outcomeUnknown();
          // The deadline answered 503 while this one waited: it claims nothing now.
          if (answered(req, reply)) return null;
          const left = until - Date.now();
          if (left <= 0) throw inUse();
          await nextLook(c.userId, c.key, Math.min(pause, left));
          pause = Math.min(pause * 2, LAST_LOOK_MS);
          found = await keys.read(c.userId, c.key);
        }
        // Gone: the request that held it did nothing. Claimed now, unless time is up.
        if (answered(req, reply)) return null;
        if (Date.now() >= until) throw inUse();
      }
    };

    async function withKey(
      this: FastifyInstance,
      given: string | string[],
      req: FastifyRequest,
      reply: FastifyReply,
    ) {
      if (typeof given !== "string" || !IDEMPOTENCY_KEY_PATTERN.test(given)) throw invalidKey();
      const userId = req.user!.id;
      const claim: KeyClaim = {
        userId,
        key: given,
        route: name,
        requestHash: requestHash(name, req.params, req.body),
      };
      const found = await claimOrWait(claim, req, reply);
      if (found === null) return reply;
      if (found) {
        return reply
          .code(found.statusCode!)
          .header(IDEMPOTENT_REPLAYED_HEADER, "true")
          .type("application/json; charset=utf-8")
          .send(found.response!);
      }
      const claimed: Claimed = {
        userId,
        key: given,
        placesOrder,
        handler: "running",
        settleWhenDone: false,
        log: req.log,
      };
      // The deadline answered while the claim was made: nothing ran, the key is free again.
      if (answered(req, reply)) {
        await settle(claimed, "release");
        return reply;
      }
      claims.set(req, claimed);
      try {
        const result = await original.call(this, req, reply);
        claimed.handler = "returned";
        return result;
      } catch (err) {
        claimed.handler = "threw";
        throw err;
      } finally {
        if (claimed.settleWhenDone) void settleLate(claimed, req);
      }
    }

    // Not async: without the header (or a caller) the route's handler is called as it is.
    route.handler = function idempotent(this: FastifyInstance, req, reply) {
      const given = req.headers[headerName];
      if (given === undefined || !req.user) return original.call(this, req, reply);
      return withKey.call(this, given, req, reply);
    } as RouteHandlerMethod;
    const own = route.onSend;
    route.onSend = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), storeAnswer];
  });

  return {
    /** Requests of this process waiting for another with their key, now. */
    waiting: () => [...waiters.values()].reduce((sum, set) => sum + set.size, 0),
  };
}

/** The `error` of an error answer's body (`{ error, message }`), or "". */
function errorOf(payload: unknown): string {
  if (typeof payload !== "string") return "";
  try {
    const { error } = JSON.parse(payload) as { error?: unknown };
    return typeof error === "string" ? error : "";
  } catch {
    return "";
  }
}

/** The request's deadline has answered it (503) already. */
const answered = (req: FastifyRequest, reply: FastifyReply) =>
  reply.sent || commitStage(req) === "given up";

/** The answer a claimed request was given, as it is stored. */
interface Answer {
  statusCode: number;
  body: string;
}

/**
 * What the claimed request's answer leaves of its key: the answer stored; the key freed (nothing
 * was done, or a failure before any commit); "abandon" (a failure after the work may have
 * committed: never run again); "later" (answered 5xx while its handler still runs: decided
 * when the handler ends).
 */
function outcomeOf(
  claimed: Claimed,
  req: FastifyRequest,
  statusCode: number,
  payload: unknown,
): Answer | "release" | "abandon" | "later" {
  if (NOTHING_DONE.has(statusCode)) return "release";
  if (statusCode < 500) {
    const body = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload : null;
    // Every idempotent route answers JSON; anything else cannot be repeated.
    return body === null ? "abandon" : { statusCode, body: body.toString() };
  }
  const stage = commitStage(req);
  if (stage === "committing") return ROLLED_BACK.has(errorOf(payload)) ? "release" : "abandon";
  if (claimed.handler === "threw") return "release";
  if (claimed.handler === "returned") return "abandon";
  // Still running: the deadline's 503. A placement commits nothing after it; other routes'
  // handlers may still finish their work, so their key waits for the handler's end.
  return stage === "given up" && claimed.placesOrder ? "release" : "later";
}

const invalidKey = () => new HttpError(400, "invalid_idempotency_key", idempotencyMessages.invalid);
const reused = () => new HttpError(422, "idempotency_key_reused", idempotencyMessages.reused);
/** The first request with the key is still being processed. */
const inUse = () => new HttpError(409, "idempotency_key_in_use", idempotencyMessages.inUse);
/** The first request with the key did not finish, and may or may not have done its work. */
const outcomeUnknown = () =>
  new HttpError(409, "idempotency_outcome_unknown", idempotencyMessages.outcomeUnknown);
