import { expect, test } from "vitest";
import type { OrderStatus } from "./orders";
import { dueDateWords, onAccountCheckoutWords, paymentWords } from "./payment-words";

/** An order of `status` on account, its invoice INV-2026-000123 due 26 Dec 2026. */
const onAccount = (status: OrderStatus, settled: boolean, creditedInFull = false) =>
  paymentWords({
    status,
    account: {
      invoiceNumber: "INV-2026-000123",
      dueAt: "2026-12-26T10:00:00.000Z",
      settled,
      creditedInFull,
    },
  });

/** Its line while the invoice is open, and once credit notes have cancelled it in full. */
const dueLine = "On account · invoice INV-2026-000123 due 26 Dec 2026";
const creditedLine = "Nothing due · invoice INV-2026-000123 credited in full";

test("an order on account reads On account with its invoice and due date, never Paid", () => {
  const words = onAccount("paid", false);
  expect(words).toEqual({ badge: "On account", line: dueLine });
  expect(JSON.stringify(words)).not.toContain("Paid");
});

test("once its invoice is paid, an order on account reads Paid", () => {
  expect(onAccount("paid", true)).toEqual({
    badge: "Paid",
    line: "Paid · invoice INV-2026-000123",
  });
});

test("an order on account whose invoice credit notes cancelled in full reads Nothing due, never Paid", () => {
  const shipped = onAccount("shipped", true, true);
  expect(shipped).toEqual({ badge: "Shipped", line: creditedLine });
  expect(onAccount("paid", true, true)).toEqual({ badge: "Credited", line: creditedLine });
  expect(JSON.stringify(shipped)).not.toContain("Paid");
});

test("a shipped order on account keeps saying what is due", () => {
  expect(onAccount("shipped", false)).toEqual({ badge: "Shipped", line: dueLine });
});

test("card orders read as their status", () => {
  expect(paymentWords({ status: "paid", account: null })).toEqual({ badge: "Paid", line: "Paid" });
  expect(paymentWords({ status: "unpaid", account: null }).badge).toBe("Unpaid");
  expect(paymentWords({ status: "awaiting_approval", account: null }).badge).toBe(
    "Awaiting approval",
  );
  expect(paymentWords({ status: "cancelled", account: null }).badge).toBe("Cancelled");
});

test("a warranty claim's replacement reads No charge, never Paid, until and after it ships", () => {
  const replacement = { account: null, warrantyClaim: "WC-10042" };
  const line = "No charge · warranty replacement for claim WC-10042";
  const paid = paymentWords({ ...replacement, status: "paid" });
  expect(paid).toEqual({ badge: "No charge", line });
  expect(paymentWords({ ...replacement, status: "shipped" })).toEqual({ badge: "Shipped", line });
  expect(JSON.stringify(paid)).not.toContain("Paid");
});

test("a due date is the invoice's UTC day", () => {
  expect(dueDateWords("2026-01-01T23:30:00.000Z")).toBe("1 Jan 2026");
  expect(dueDateWords(new Date("2026-12-31T00:00:00.000Z"))).toBe("31 Dec 2026");
});

test("checkout tells a Net 30 buyer how they pay", () => {
  expect(onAccountCheckoutWords(30)).toMatch(/^On account: invoice due in 30 days\. No card/);
});
