import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, test } from "vitest";
import { clientStillWaiting } from "./client-waiting";
import { errorHandler } from "./error-handler";
import { applyRequestTimeout } from "./request-deadline";

// Fifth outside review (issue 49), finding 5: orders were placed after their clients had been
// answered 503 or had given up. A placing route's deadline (ORDER_TIMEOUT_SECONDS) answers 503
// only before the placement commits, and after that 503 nothing commits.

const ORDER_MS = 100;
let app: FastifyInstance;
/** Each request's work waits for the test to let it go on (no timers of the test's own). */
const gates = new Map<string, () => void>();
const asked: Record<string, boolean[]> = {};

beforeAll(async () => {
  app = Fastify();
  app.setErrorHandler(errorHandler);
  applyRequestTimeout(app, 30_000, ORDER_MS);
  app.post<{ Querystring: { id: string; commit?: string } }>(
    "/place",
    { config: { placesOrder: true } },
    async (req, reply) => {
      const { id, commit } = req.query;
      const waiting = clientStillWaiting(req);
      // The last check before a commit; the commit itself then waits for the gate.
      if (commit) (asked[id] ??= []).push(waiting(true));
      await new Promise<void>((resolve) => gates.set(id, resolve));
      if (!commit) (asked[id] ??= []).push(waiting(true));
      return reply.code(201).send({ placed: id });
    },
  );
  await app.ready();
});
afterAll(() => app.close());

const place = (id: string, commit = false) =>
  app.inject({ method: "POST", url: `/place?id=${id}${commit ? "&commit=1" : ""}` });
const whenWaiting = async (id: string) => {
  await expect.poll(() => gates.has(id)).toBe(true);
};

test("a placement still short of its commit at ORDER_TIMEOUT_SECONDS is answered 503, and commits nothing after", async () => {
  const answer = place("late");
  await whenWaiting("late");
  const res = await answer;
  expect(res.statusCode).toBe(503);
  gates.get("late")!();
  // Asked after its 503, it is told the client no longer waits.
  await expect.poll(() => asked.late).toEqual([false]);
});

test("a placement committing at its deadline is answered with what it committed, not 503", async () => {
  const committing = place("committing", true);
  await whenWaiting("committing");
  expect(asked.committing).toEqual([true]);
  // A later placement's deadline has passed once it is answered: so has the first one's.
  const later = place("clock");
  await whenWaiting("clock");
  expect((await later).statusCode).toBe(503);
  gates.get("committing")!();
  const res = await committing;
  expect(res.statusCode).toBe(201);
  expect(res.json()).toEqual({ placed: "committing" });
});
