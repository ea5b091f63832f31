import fc from "fast-check";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { signUp, signUpVerified } from "../../../tests/support/accounts";
import { insertBareOrder, insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { discountCodeMessages as msg } from "../../contract/discount-codes";
import { adminAuditLog } from "../audit/tables";
import { HttpError } from "../errors";
import { codeByText, redeemCode } from "./discount-codes";
import {
  discountLines,
  discountRefusal,
  type DiscountConditions,
  type DiscountTerms,
} from "./discounts";
import { discountCodes, discountRedemptions, GARAGE_GROUP_ID, RETAIL_GROUP_ID } from "./tables";

describe("the rule, pure", () => {
  const terms = (t: Partial<DiscountTerms>): DiscountTerms => ({
    kind: "percent",
    percent: 10,
    amountCents: null,
    scope: "all",
    category: null,
    productId: null,
    ...t,
  });
  const lines = [
    { productId: "a", category: "Brakes", lineTotalCents: 3000 },
    { productId: "b", category: "Filters", lineTotalCents: 1201 },
    { productId: "c", category: "Brakes", lineTotalCents: 999 },
  ];

  test("percent off takes its share of each line it is for, and of no other", () => {
    expect(discountLines(terms({ percent: 10 }), lines)).toEqual({
      perLine: [300, 120, 100],
      totalCents: 520,
      eligibleCents: 5200,
    });
    expect(discountLines(terms({ scope: "category", category: "Brakes" }), lines)).toEqual({
      perLine: [300, 0, 100],
      totalCents: 400,
      eligibleCents: 3999,
    });
    expect(discountLines(terms({ scope: "part", productId: "b", percent: 100 }), lines)).toEqual({
      perLine: [0, 1201, 0],
      totalCents: 1201,
      eligibleCents: 1201,
    });
  });

  test("amount off is capped by what it is for, shared in proportion, the odd cents to the largest remainders", () => {
    const brakes = { scope: "category" as const, category: "Brakes" };
    expect(
      discountLines(terms({ kind: "amount", amountCents: 100_000, ...brakes }), lines),
    ).toEqual({ perLine: [3000, 0, 999], totalCents: 3999, eligibleCents: 3999 });
    // 500 × 3000 / 3999 = 375.09…, 500 × 999 / 3999 = 124.90…: 375 + 124, the odd cent to the second.
    expect(discountLines(terms({ kind: "amount", amountCents: 500, ...brakes }), lines)).toEqual({
      perLine: [375, 0, 125],
      totalCents: 500,
      eligibleCents: 3999,
    });
  });

  test("property: never below zero, never above the line, amount off exactly min(amount, eligible)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            productId: fc.constantFrom("a", "b", "c"),
            category: fc.constantFrom("Brakes", "Filters", null),
            lineTotalCents: fc.integer({ min: 0, max: 50_000_000 }),
          }),
          { maxLength: 12 },
        ),
        fc.constantFrom("percent", "amount") as fc.Arbitrary<"percent" | "amount">,
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.constantFrom("all", "category", "part") as fc.Arbitrary<"all" | "category" | "part">,
        (ls, kind, percent, amountCents, scope) => {
          const t = terms({
            kind,
            percent: kind === "percent" ? percent : null,
            amountCents: kind === "amount" ? amountCents : null,
            scope,
            category: scope === "category" ? "Brakes" : null,
            productId: scope === "part" ? "a" : null,
          });
          const d = discountLines(t, ls);
          d.perLine.forEach((cents, i) => {
            expect(Number.isInteger(cents)).toBe(true);
            expect(cents).toBeGreaterThanOrEqual(0);
            expect(cents).toBeLessThanOrEqual(ls[i]!.lineTotalCents);
          });
          expect(d.totalCents).toBe(d.perLine.reduce((a, b) => a + b, 0));
          if (kind === "amount") expect(d.totalCents).toBe(Math.min(amountCents, d.eligibleCents));
          else expect(d.totalCents).toBeLessThanOrEqual(d.eligibleCents);
        },
      ),
      { numRuns: 500 },
    );
  });

  test("a refused code says why, in this order", () => {
    const code: DiscountConditions = {
      active: true,
      startsOn: "2027-01-10",
      endsOn: "2027-01-31",
      minSubtotalCents: 5000,
      usageLimit: 10,
      perCustomerLimit: 1,
      usedCount: 3,
      customerGroupId: RETAIL_GROUP_ID,
    };
    const buyer = {
      today: "2027-01-15",
      groupId: RETAIL_GROUP_ID,
      usesByBuyer: 0,
      subtotalCents: 5000,
      currency: "USD",
    };
    expect(discountRefusal(code, buyer, 5000)).toBeNull();
    expect(discountRefusal({ ...code, active: false }, buyer, 5000)).toBe(msg.unknownOrEnded);
    expect(discountRefusal(code, { ...buyer, today: "2027-02-01" }, 5000)).toBe(msg.unknownOrEnded);
    expect(discountRefusal(code, { ...buyer, today: "2027-01-09" }, 5000)).toBe(
      "This code starts on 10 Jan 2027",
    );
    expect(discountRefusal(code, { ...buyer, groupId: GARAGE_GROUP_ID }, 5000)).toBe(
      msg.notForGroup,
    );
    expect(discountRefusal({ ...code, usedCount: 10 }, buyer, 5000)).toBe(msg.usedUp);
    expect(discountRefusal(code, { ...buyer, usesByBuyer: 1 }, 5000)).toBe(msg.usedByYou);
    expect(discountRefusal(code, { ...buyer, subtotalCents: 4999 }, 4999)).toBe(
      "Spend $50.00 or more to use this code",
    );
    expect(discountRefusal(code, buyer, 0)).toBe(msg.nothingEligible);
  });
});

describe("discount codes through the API", () => {
  const { t, call, admin } = storeForTests({
    admin: "codes-admin@example.com",
    shipsToTestAddress: true,
  });
  let n = 0;
  const fresh = () => `C${process.pid}X${++n}`;

  test("an admin creates, lists, edits and switches off a code; each change is audited", async () => {
    const part = await insertProduct(t.database.db, { category: "Brakes" });
    const code = fresh();
    const created = await call(admin, "POST", "/api/discount-codes", {
      code,
      kind: "amount",
      amount: 5,
      scope: "part",
      partNumber: part.partNumber.toLowerCase(),
      minSubtotal: 20,
      startsOn: "2027-01-01",
      endsOn: "2027-12-31",
      usageLimit: 100,
      perCustomerLimit: 1,
      customerGroupId: GARAGE_GROUP_ID,
    });
    expect(created.statusCode).toBe(201);
    const saved = created.json();
    expect(saved).toMatchObject({
      code,
      kind: "amount",
      amount: 5,
      percent: null,
      scope: "part",
      productId: part.id,
      partNumber: part.partNumber,
      minSubtotal: 20,
      usageLimit: 100,
      perCustomerLimit: 1,
      customerGroupName: "Garage",
      active: true,
      used: 0,
      words: `$5.00 off ${part.partNumber}`,
    });

    // The same code in another case is the same code.
    const again = await call(admin, "POST", "/api/discount-codes", {
      code: code.toLowerCase(),
      kind: "percent",
      percent: 10,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(msg.codeTaken);

    const list = await call(admin, "GET", `/api/discount-codes?q=${code.toLowerCase()}&limit=1`);
    expect(list.statusCode).toBe(200);
    expect(list.headers["x-total-count"]).toBe("1");
    expect(list.json()[0].id).toBe(saved.id);

    const edited = await call(admin, "PATCH", `/api/discount-codes/${saved.id}`, {
      code,
      kind: "percent",
      percent: 15,
      scope: "category",
      category: "Brakes",
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      percent: 15,
      amount: null,
      productId: null,
      customerGroupId: null,
      startsOn: null,
      usageLimit: null,
      words: "15 % off brakes",
    });

    const off = await call(admin, "DELETE", `/api/discount-codes/${saved.id}`);
    expect(off.statusCode).toBe(204);
    expect((await call(admin, "GET", `/api/discount-codes/${saved.id}`)).json().active).toBe(false);

    const audit = await t.database.db
      .select({ action: adminAuditLog.action })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, saved.id));
    expect(audit.map((a) => a.action).sort()).toEqual([
      "discount-code.create",
      "discount-code.deactivate",
      "discount-code.update",
    ]);
  });

  test("bad input is a 400 with its field's words; nothing is written", async () => {
    const cases: [object, string, string][] = [
      [{ code: "a b", kind: "percent", percent: 10 }, "code", msg.code],
      [{ code: fresh(), kind: "percent" }, "percent", msg.percent],
      [{ code: fresh(), kind: "percent", percent: 101 }, "percent", msg.percent],
      [{ code: fresh(), kind: "amount" }, "amount", msg.amount],
      [
        { code: fresh(), kind: "amount", amount: 1.005 },
        "amount",
        "Amount off: use at most 2 decimals",
      ],
      [{ code: fresh(), kind: "percent", percent: 5, scope: "category" }, "category", msg.category],
      [
        { code: fresh(), kind: "percent", percent: 5, scope: "part", partNumber: "NO-SUCH-9" },
        "partNumber",
        msg.unknownPart,
      ],
      [
        {
          code: fresh(),
          kind: "percent",
          percent: 5,
          startsOn: "2027-02-01",
          endsOn: "2027-01-01",
        },
        "endsOn",
        msg.datesOrder,
      ],
      [{ code: fresh(), kind: "percent", percent: 5, usageLimit: 0 }, "usageLimit", msg.limit],
      [
        {
          code: fresh(),
          kind: "percent",
          percent: 5,
          customerGroupId: "00000000-0000-4000-8000-0000000000ff",
        },
        "customerGroupId",
        msg.unknownGroup,
      ],
    ];
    const before = await t.database.db.$count(discountCodes);
    for (const [body, field, words] of cases) {
      const res = await call(admin, "POST", "/api/discount-codes", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields?.[field], JSON.stringify(body)).toBe(words);
    }
    expect(await t.database.db.$count(discountCodes)).toBe(before);
    const missing = "/api/discount-codes/00000000-0000-4000-8000-0000000000ff";
    expect((await call(admin, "GET", missing)).statusCode).toBe(404);
  });

  test("the usage limit holds when orders race for the last use; each customer's own limit too", async () => {
    const code = fresh();
    const created = await call(admin, "POST", "/api/discount-codes", {
      code,
      kind: "percent",
      percent: 10,
      usageLimit: 3,
      perCustomerLimit: 1,
    });
    const codeId: string = created.json().id;
    const buyers = await Promise.all(Array.from({ length: 8 }, () => signUpVerified(t)));
    const orders = await Promise.all(buyers.map(() => insertBareOrder(t.database.db)));
    // Eight orders, each in its own transaction, for three uses left.
    const results = await Promise.allSettled(
      buyers.map((b, i) =>
        t.database.db.transaction((tx) =>
          redeemCode(tx, { codeId, totalCents: 100 }, b.id, orders[i]!.orderId),
        ),
      ),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(3);
    for (const r of lost) {
      const err = (r as PromiseRejectedResult).reason;
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).message).toBe(msg.usedUp);
    }
    const [row] = await t.database.db
      .select({ used: discountCodes.usedCount })
      .from(discountCodes)
      .where(eq(discountCodes.id, codeId));
    expect(row!.used).toBe(3);
    expect(
      await t.database.db.$count(discountRedemptions, eq(discountRedemptions.codeId, codeId)),
    ).toBe(3);

    // One customer, two orders at once, a limit of one each: one gets it.
    const other = fresh();
    const second = await call(admin, "POST", "/api/discount-codes", {
      code: other,
      kind: "percent",
      percent: 10,
      perCustomerLimit: 1,
    });
    const me = await signUpVerified(t);
    const mine = await Promise.all([1, 2].map(() => insertBareOrder(t.database.db)));
    const twice = await Promise.allSettled(
      mine.map((o) =>
        t.database.db.transaction((tx) =>
          redeemCode(tx, { codeId: second.json().id, totalCents: 1 }, me.id, o.orderId),
        ),
      ),
    );
    expect(twice.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refusal = twice.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refusal.reason as HttpError).message).toBe(msg.usedByYou);
    expect((await codeByText(t.database.db, other.toLowerCase()))?.usedCount).toBe(1);
  });

  test("visitors and customers cannot reach the admin's routes", async () => {
    const customer = await signUp(t.app);
    expect((await call(null, "GET", "/api/discount-codes")).statusCode).toBe(401);
    expect((await call(customer, "GET", "/api/discount-codes")).statusCode).toBe(403);
    expect(
      (
        await call(customer, "POST", "/api/discount-codes", {
          code: fresh(),
          kind: "percent",
          percent: 50,
        })
      ).statusCode,
    ).toBe(403);
  });
});
