import { expect, test } from "vitest";
import { cancelledWords } from "./order-details";

// What the customer's order page says of a cancelled order: why, and what became of its money.

const paidAt = "2026-12-01T10:00:00.000Z";
const account = {
  invoiceNumber: "INV-2026-0042",
  dueAt: "2026-12-31T10:00:00.000Z",
  settled: false,
  creditedInFull: true,
};

test("an order cancelled unpaid says why", () => {
  expect(cancelledWords({ cancelReason: "hold_ran_out", paidAt: null, account: null })).toBe(
    "This order was cancelled: it was not paid before its hold on the stock ran out, and its parts went back on sale.",
  );
  expect(cancelledWords({ cancelReason: "declined", paidAt: null, account: null })).toBe(
    "Your company declined this order, so it is cancelled and its parts went back on sale.",
  );
});

test("a paid order cancelled says it is refunded; on account, that a credit note cancels its invoice", () => {
  expect(cancelledWords({ cancelReason: "store", paidAt, account: null })).toBe(
    "We cancelled this order, and its parts went back on sale. What you paid is refunded the way you paid it.",
  );
  expect(cancelledWords({ cancelReason: "buyer", paidAt, account: null })).toBe(
    "You cancelled the parts on backorder that were all this order had left to send, so the whole order is cancelled. What you paid is refunded the way you paid it.",
  );
  expect(cancelledWords({ cancelReason: "store", paidAt, account })).toBe(
    "We cancelled this order, and its parts went back on sale. A credit note cancels its invoice.",
  );
});

test("an order cancelled before reasons were kept says it plainly", () => {
  expect(cancelledWords({ cancelReason: null, paidAt: null, account: null })).toBe(
    "This order was cancelled and its parts went back on sale.",
  );
});
