import { afterEach, describe, expect, test, vi } from "vitest";
import { HttpError } from "../errors";
import { createProductGate } from "./product-gate";

/** A piece of work that ends when the test says so. */
function pending<T = string>() {
  let finish!: (v: T) => void;
  let fail!: (e: unknown) => void;
  const done = new Promise<T>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { work: () => done, finish, fail };
}

/** Lets every promise callback queued so far run. */
const settle = () => new Promise<void>((r) => setImmediate(r));

afterEach(() => vi.useRealTimers());

describe("product gate", () => {
  test("lets `perProduct` placements of one product in and queues the rest, first come first served", async () => {
    const gate = createProductGate({ perProduct: 2, waitMs: 60_000 });
    const works = Array.from({ length: 5 }, () => pending());
    const started: number[] = [];
    const runs = works.map((w, i) =>
      gate.run(["p"], () => {
        started.push(i);
        return w.work();
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(gate.stats()).toEqual({ inside: 2, waiting: 3, products: 1 });

    works[1]!.finish("one");
    await settle();
    expect(started).toEqual([0, 1, 2]);
    works[0]!.finish("zero");
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const w of works.slice(2)) w.finish("later");
    expect(await Promise.all(runs)).toEqual(["zero", "one", "later", "later", "later"]);
    expect(gate.stats()).toEqual({ inside: 0, waiting: 0, products: 0 });
  });

  test("another product is never held up by a full one", async () => {
    const gate = createProductGate({ perProduct: 1, waitMs: 60_000 });
    const hot = pending();
    const hotRun = gate.run(["hot"], hot.work);
    const queued = gate.run(["hot"], async () => "queued");
    expect(await gate.run(["other"], async () => "other")).toBe("other");
    expect(gate.stats()).toEqual({ inside: 1, waiting: 1, products: 1 });
    hot.finish("hot");
    expect(await Promise.all([hotRun, queued])).toEqual(["hot", "queued"]);
  });

  test("a placement that waits longer than `waitMs` is told busy (503) and leaves what it entered", async () => {
    vi.useFakeTimers();
    const gate = createProductGate({ perProduct: 1, waitMs: 2_000 });
    const holder = pending();
    const holding = gate.run(["b"], holder.work);
    const ran = vi.fn(async () => "ran");
    // It enters "a" at once, then waits for "b".
    const waiting = gate.run(["b", "a"], ran);
    const refused = expect(waiting).rejects.toSatisfy(
      (e) => e instanceof HttpError && e.statusCode === 503 && e.code === "busy",
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.stats()).toEqual({ inside: 2, waiting: 1, products: 2 });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(gate.stats().waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await refused;
    expect(ran).not.toHaveBeenCalled();
    // "a" was given back: another placement of it goes straight in.
    expect(gate.stats()).toEqual({ inside: 1, waiting: 0, products: 1 });
    expect(await gate.run(["a"], async () => "a again")).toBe("a again");
    holder.finish("done");
    expect(await holding).toBe("done");
    expect(gate.stats()).toEqual({ inside: 0, waiting: 0, products: 0 });
  });

  test("the wait is bounded as a whole, not per product", async () => {
    vi.useFakeTimers();
    const gate = createProductGate({ perProduct: 1, waitMs: 2_000 });
    const a = pending();
    const b = pending();
    void gate.run(["a"], a.work);
    void gate.run(["b"], b.work);
    const both = gate.run(["a", "b"], async () => "both");
    const outcome = both.then(
      () => "placed",
      (e: HttpError) => e.code,
    );
    await vi.advanceTimersByTimeAsync(200);
    a.finish("a"); // its turn for "a" comes after 0.2 s; "b" stays busy
    await vi.advanceTimersByTimeAsync(1_799);
    expect(gate.stats().waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe("busy");
    b.finish("b");
  });

  test("a placement that would not get its turn within the wait is refused at once (the one inside has stayed long: a locked row)", async () => {
    vi.useFakeTimers();
    let shed = 0;
    const gate = createProductGate({ perProduct: 1, waitMs: 2_000, onShed: () => shed++ });
    const holder = pending();
    const holding = gate.run(["p"], holder.work);
    await vi.advanceTimersByTimeAsync(500);
    // Inside for 0.5 s so far: a turn after it is expected within 0.5 s, so it queues.
    const second = gate.run(["p"], async () => "second");
    await vi.advanceTimersByTimeAsync(1_000);
    // Inside for 1.5 s: two turns of 1.5 s ahead of a third are more than its 2 s.
    const started = Date.now();
    const third = gate.run(["p"], async () => "third").catch((e: HttpError) => e.code);
    expect(await third).toBe("busy");
    expect(Date.now()).toBe(started);
    expect(shed).toBe(1);
    expect(gate.stats()).toEqual({ inside: 1, waiting: 1, products: 1 });
    holder.finish("held");
    expect(await Promise.all([holding, second])).toEqual(["held", "second"]);
  });

  test("a product whose placements leave quickly keeps a long queue: all of a rush wait their turn", async () => {
    vi.useFakeTimers();
    let shed = 0;
    const gate = createProductGate({ perProduct: 2, waitMs: 2_000, onShed: () => shed++ });
    // Placements that stay 10 ms each.
    const place = () => gate.run(["p"], () => new Promise((r) => setTimeout(() => r("ok"), 10)));
    const first = Promise.all([place(), place()]);
    await vi.advanceTimersByTimeAsync(10);
    await first;
    const rush = Array.from({ length: 100 }, place);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await Promise.all(rush)).toEqual(rush.map(() => "ok"));
    expect(shed).toBe(0);
  });

  test("with `queueMax` already queued for a product, the next is refused at once", async () => {
    const gate = createProductGate({ perProduct: 1, waitMs: 60_000, queueMax: 1 });
    const holder = pending();
    const holding = gate.run(["p"], holder.work);
    const queued = gate.run(["p"], async () => "queued");
    await expect(gate.run(["a", "p"], async () => "refused")).rejects.toSatisfy(
      (e) => e instanceof HttpError && e.statusCode === 503 && e.code === "busy",
    );
    expect(gate.stats()).toEqual({ inside: 1, waiting: 1, products: 1 });
    holder.finish("held");
    expect(await Promise.all([holding, queued])).toEqual(["held", "queued"]);
  });

  test("the gates are left when the work fails, and the error is the work's", async () => {
    const gate = createProductGate({ perProduct: 1, waitMs: 60_000 });
    const failing = pending();
    const run = gate.run(["x", "y"], failing.work);
    const next = gate.run(["y"], async () => "next");
    await settle();
    expect(gate.stats()).toEqual({ inside: 2, waiting: 1, products: 2 });
    failing.fail(new HttpError(409, "conflict", "stock changed"));
    await expect(run).rejects.toThrow("stock changed");
    expect(await next).toBe("next");
    expect(gate.stats()).toEqual({ inside: 0, waiting: 0, products: 0 });
  });

  test("carts sharing products enter in sorted order: no two wait for each other", async () => {
    const gate = createProductGate({ perProduct: 1, waitMs: 60_000 });
    const first = pending();
    const holding = gate.run(["a"], first.work);
    // The two carts list the shared products the other way round. Entered in the order given,
    // the second would take "b" while the first waits for "a"; once "a" is free the first would
    // wait for "b" and the second for "a", each for the other.
    const one = gate.run(["a", "b"], async () => "one");
    const two = gate.run(["b", "a"], async () => "two");
    await settle();
    expect(gate.stats()).toEqual({ inside: 1, waiting: 2, products: 1 });
    first.finish("first");
    expect(await Promise.all([holding, one, two])).toEqual(["first", "one", "two"]);
    expect(gate.stats()).toEqual({ inside: 0, waiting: 0, products: 0 });
  });

  test("a product listed twice enters its gate once", async () => {
    const gate = createProductGate({ perProduct: 1, waitMs: 60_000 });
    expect(await gate.run(["p", "p"], async () => gate.stats())).toEqual({
      inside: 1,
      waiting: 0,
      products: 1,
    });
  });
});
