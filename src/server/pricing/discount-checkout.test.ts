import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { checkoutToTestAddress } from "../../../tests/support/destination";
import { discountsOfOrder, newDiscountCodes } from "../../../tests/support/discount-codes";
import { insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { cancelOrderAsAdmin, payWithTestCard } from "../../../tests/support/payments";
import { pdfText } from "../../../tests/support/pdf-text";
import { storeForTests } from "../../../tests/support/store";
import { discountCodeMessages as msg } from "../../contract/discount-codes";
import { invoices } from "../invoices/tables";
import { refunds } from "../returns/tables";
import { discountOfUnits } from "./discounts";
import { cartDiscountCodes, discountCodes, discountRedemptions } from "./tables";

/** An order placed with a discount code (docs/pricing.md "Discount codes"). */
describe("checking out with a discount code", () => {
  const { t, call, admin } = storeForTests({
    admin: "codes-checkout-admin@example.com",
    shipsToTestAddress: true,
  });
  const code = newDiscountCodes(t, admin, "Q");
  /** A customer with 3 parts at $10.00 in their cart and `c` applied; their cart as shown. */
  async function buyerWithCode(c: string) {
    const part = await insertProduct(t.database.db, { priceCents: 1000, minimumOrder: 1 });
    const buyer = await signUp(t.app);
    expect((await call(buyer, "PUT", `/api/cart/items/${part.id}`, { qty: 3 })).statusCode).toBe(
      200,
    );
    const cart = await call(buyer, "PUT", "/api/cart/discount-code", { code: c });
    expect(cart.statusCode, cart.body).toBe(200);
    return { buyer, part, cart: cart.json() };
  }
  const checkout = (who: TestAccount, total: number, discountCode?: string) =>
    call(who, "POST", "/api/checkout", { ...checkoutToTestAddress(total), discountCode });

  test("the order keeps the code and what it took off, each line its share; the use is recorded and the cart's code goes", async () => {
    const c = await code({ kind: "amount", amount: 4.2 });
    const { buyer, cart } = await buyerWithCode(c.code);
    expect(cart).toMatchObject({ subtotal: 30, discount: { amount: 4.2 }, total: 25.8 });
    const res = await checkout(buyer, cart.total, c.code);
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().order;
    expect(order).toMatchObject({
      subtotal: 30,
      discount: { code: c.code, amount: 4.2 },
      total: 25.8,
    });
    const { lines, uses } = await discountsOfOrder(t.database.db, order._id);
    expect(lines).toEqual([{ discountCents: 420 }]);
    expect(uses).toMatchObject([{ codeId: c.id, code: c.code, discountCents: 420 }]);
    expect(await t.database.db.$count(cartDiscountCodes, eq(cartDiscountCodes.codeId, c.id))).toBe(
      0,
    );
    const fetched = await call(buyer, "GET", `/api/orders/${order._id}`);
    expect(fetched.json().discount).toEqual({ code: c.code, amount: 4.2 });

    // The order email and the invoice show the discount as its own line.
    const mail = await waitForMail(t.app, buyer.email, /order .* is placed/i);
    expect(mail.text).toContain(`Discount (${c.code})`);
    expect(mail.text).toContain("−$4.20");
    const { paid } = await payWithTestCard(t.app, buyer, order._id);
    expect(paid.statusCode, paid.body).toBe(200);
    const pdf = await call(buyer, "GET", `/api/orders/${order._id}/invoice.pdf`);
    expect(pdf.statusCode).toBe(200);
    const { text } = await pdfText(new Uint8Array(pdf.rawPayload));
    expect(text).toContain(`Discount (${c.code})`);
    expect(text).toContain("-$4.20");
    expect(text).toContain("$25.80");
  });

  test("the price the buyer saw is checked again: without the code, or after it ended, nothing is placed", async () => {
    const c = await code({ kind: "percent", percent: 10 });
    const { buyer, cart } = await buyerWithCode(c.code);
    // The discounted total without naming the code: the server's total differs.
    const without = await checkout(buyer, cart.total);
    expect(without.statusCode).toBe(409);
    expect(without.json().fields).toMatchObject({ subtotal: "30", total: "30" });

    expect((await call(admin, "DELETE", `/api/discount-codes/${c.id}`)).statusCode).toBe(204);
    const ended = await checkout(buyer, cart.total, c.code);
    expect(ended.statusCode).toBe(422);
    expect(ended.json()).toMatchObject({ message: msg.unknownOrEnded });
    expect((await call(buyer, "GET", "/api/orders")).json()).toHaveLength(0);
  });

  test("checkouts racing for the last uses: as many orders as uses, the others told it is used up", async () => {
    const c = await code({ kind: "percent", percent: 10, usageLimit: 2 });
    const buyers = await Promise.all([1, 2, 3, 4, 5].map(() => buyerWithCode(c.code)));
    const results = await Promise.all(buyers.map((b) => checkout(b.buyer, b.cart.total, c.code)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 422, 422, 422]);
    for (const r of results.filter((r) => r.statusCode === 422)) {
      expect(r.json().message).toBe(msg.usedUp);
    }
    const [row] = await t.database.db
      .select({ used: discountCodes.usedCount })
      .from(discountCodes)
      .where(eq(discountCodes.id, c.id));
    expect(row!.used).toBe(2);
    expect(
      await t.database.db.$count(discountRedemptions, eq(discountRedemptions.codeId, c.id)),
    ).toBe(2);
  });

  test("a customer's own limit holds on their next cart", async () => {
    const c = await code({ kind: "percent", percent: 10, perCustomerLimit: 1 });
    const { buyer, cart } = await buyerWithCode(c.code);
    expect((await checkout(buyer, cart.total, c.code)).statusCode).toBe(201);
    // Their first order is unpaid: the duplicate rule wants another part.
    const other = await insertProduct(t.database.db, { priceCents: 1000, minimumOrder: 1 });
    await call(buyer, "PUT", `/api/cart/items/${other.id}`, { qty: 1 });
    const again = await call(buyer, "PUT", "/api/cart/discount-code", { code: c.code });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(msg.usedByYou);
    const placed = await checkout(buyer, 9, c.code);
    expect(placed.statusCode).toBe(422);
    expect(placed.json().message).toBe(msg.usedByYou);
  });

  test("a refund gives back what was paid: each line's price less its share of the discount", async () => {
    // Shares of a line's discount add up to it, batch after batch.
    const line = { qty: 7, discountCents: 1000 };
    expect(discountOfUnits(line, 3) + (discountOfUnits(line, 7) - discountOfUnits(line, 3))).toBe(
      1000,
    );
    const c = await code({ kind: "amount", amount: 4.2 });
    const { buyer, cart } = await buyerWithCode(c.code);
    const placed = await checkout(buyer, cart.total, c.code);
    const orderId: string = placed.json().order._id;
    expect((await payWithTestCard(t.app, buyer, orderId)).paid.statusCode).toBe(200);
    expect((await cancelOrderAsAdmin(t.app, admin, orderId)).statusCode).toBe(200);
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(refund).toMatchObject({ netCents: 2580, amountCents: 2580 });
    // The credit note's line is what was paid for it: 3 × $10.00 less $4.20.
    const notes = await t.database.db
      .select({ kind: invoices.kind, snapshot: invoices.snapshot })
      .from(invoices)
      .where(eq(invoices.orderId, orderId));
    const note = notes.find((n) => n.kind !== "invoice");
    expect(note?.snapshot.lines.map((l) => l.netCents)).toEqual([-2580]);
  });
});
