import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { orderAndCharge } from "../../../tests/support/payments";
import { multipart } from "../../../tests/support/multipart";
import { storeForTests } from "../../../tests/support/store";
import { claimBody } from "../../../tests/support/warranty";
import { LOT_MESSAGE } from "../../contract/shipments";
import { orders } from "../orders/tables";
import { shippedUnits } from "../shipments/tables";
import type { WarrantyReport } from "../../contract/warranty-report";
import { keptReports } from "./report";
import { warrantyClaims } from "./tables";

/** Production lots on shipped lines and claims, and the warranty report (docs/warranty.md). */

const { t, call, admin, customer } = storeForTests({
  admin: "report-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "report-customer@example.com" },
});

/** `qty` of `part`, ordered and paid by the customer. */
async function paidOrder(partId: string, qty: number) {
  const { orderId, confirm } = await orderAndCharge(t.app, customer, partId, qty);
  expect((await confirm()).statusCode).toBe(200);
  return orderId;
}
async function ship(orderId: string, qty: number, lot?: string) {
  const res = await call(admin, "POST", `/api/orders/${orderId}/shipments`, {
    lines: [{ line: 1, qty, ...(lot === undefined ? {} : { lot }) }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function claim(orderId: string, qty: number) {
  const res = await call(customer, "POST", "/api/warranty-claims", claimBody(orderId, { qty }));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
/** Where a claim stands, set directly: the report only reads it. */
const setClaim = (id: string, fields: Partial<typeof warrantyClaims.$inferInsert>) =>
  t.database.db.update(warrantyClaims).set(fields).where(eq(warrantyClaims.id, id));

const thisMonth = new Date().toISOString().slice(0, 7);

test("a shipped line's lots are recorded at shipping (checked and trimmed), shown on its shipments and its claims, and counted by the report", async () => {
  const a = await insertProduct(t.database.db, {
    name: "Brake pads",
    priceCents: 2000,
    minimumOrder: 1,
  });
  const b = await insertProduct(t.database.db, {
    name: "Water pump",
    priceCents: 3500,
    minimumOrder: 1,
  });

  // Order 1: 3 × A, shipped as 2 of lot L-100 and 1 of lot L-200 (typed with spaces around).
  const order1 = await paidOrder(a.id, 3);
  const bad = await call(admin, "POST", `/api/orders/${order1}/shipments`, {
    lines: [{ line: 1, qty: 1, lot: "L 100" }],
  });
  expect(bad.statusCode).toBe(400);
  expect(bad.body).toContain(LOT_MESSAGE);
  await ship(order1, 2, " L-100 ");
  const shipped = await ship(order1, 1, "L-200");
  expect(shipped.shipments.map((s: { lines: { lot: string }[] }) => s.lines[0]!.lot)).toEqual([
    "L-100",
    "L-200",
  ]);
  // Order 2: 5 × B, one lot "-5" (a cell a spreadsheet would read as a formula); placed in June.
  const order2 = await paidOrder(b.id, 5);
  await t.database.db
    .update(orders)
    .set({ createdAt: new Date("2025-06-15T12:00:00Z") })
    .where(eq(orders.id, order2));
  await ship(order2, 5, "-5");
  // Order 3: 4 × A, shipped without a lot.
  const order3 = await paidOrder(a.id, 4);
  await ship(order3, 4);

  const c1 = await claim(order1, 2);
  const c2 = await claim(order2, 1);
  const c3 = await claim(order3, 1);
  const c4 = await claim(order3, 2);
  const now = new Date();
  await setClaim(c1, {
    status: "approved",
    remedy: "refund",
    failureCode: "WEAR",
    findings: "Worn",
    inspectedAt: now,
  });
  await setClaim(c2, {
    status: "inspected",
    failureCode: "LEAK",
    findings: "Seal",
    inspectedAt: now,
  });
  await setClaim(c3, { status: "rejected", rejectionReason: "Misfitted" });

  // The claim shows its line's lots; a line without any shows none.
  expect((await call(customer, "GET", `/api/warranty-claims/${c1}`)).json().lots).toEqual([
    "L-100",
    "L-200",
  ]);
  expect((await call(customer, "GET", `/api/warranty-claims/${c4}`)).json().lots).toEqual([]);

  const res = await call(admin, "GET", "/api/warranty/report");
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({
    from: null,
    to: null,
    asOf: expect.any(String),
    currency: "USD",
    // Sold 3 + 4 of A and 5 of B; claims 1, 2 and 4 (3 is rejected): 5 units.
    totals: { sold: 12, claims: 3, claimedUnits: 5, perThousand: 416.7, approvedCostCents: 4000 },
    parts: [
      {
        productId: a.id,
        partNumber: a.partNumber,
        productName: "Brake pads",
        sold: 7,
        claims: 2,
        claimedUnits: 4,
        perThousand: 571.4,
      },
      {
        productId: b.id,
        partNumber: b.partNumber,
        productName: "Water pump",
        sold: 5,
        claims: 1,
        claimedUnits: 1,
        perThousand: 200,
      },
    ],
    failureCodes: [
      { code: "LEAK", label: "Leak", claims: 1, claimedUnits: 1 },
      { code: "WEAR", label: "Premature wear", claims: 1, claimedUnits: 2 },
    ],
    months: [
      {
        month: "2025-06",
        sold: 5,
        claims: 1,
        claimedUnits: 1,
        perThousand: 200,
        approvedCostCents: 0,
      },
      {
        month: thisMonth,
        sold: 7,
        claims: 2,
        claimedUnits: 4,
        perThousand: 571.4,
        approvedCostCents: 4000,
      },
    ],
    // Claim 1 counts for both lots its line shipped in.
    lots: [
      { lot: "L-200", sold: 1, claims: 1, claimedUnits: 2, perThousand: 2000 },
      { lot: "L-100", sold: 2, claims: 1, claimedUnits: 2, perThousand: 1000 },
      { lot: "-5", sold: 5, claims: 1, claimedUnits: 1, perThousand: 200 },
    ],
    lotsWithClaims: 3,
  });

  // The months of sale filter both what sold and what was claimed.
  const june = (await call(admin, "GET", "/api/warranty/report?from=2025-06&to=2025-06")).json();
  expect(june.totals).toEqual({
    sold: 5,
    claims: 1,
    claimedUnits: 1,
    perThousand: 200,
    approvedCostCents: 0,
  });
  expect(june.parts.map((p: { productName: string }) => p.productName)).toEqual(["Water pump"]);
  const wrong = await call(admin, "GET", "/api/warranty/report?from=2025-07&to=2025-06");
  expect(wrong.statusCode).toBe(400);

  // The CSV: the same figures, a section per row, formula-safe cells.
  const csv = await call(admin, "GET", "/api/warranty/report.csv?from=2025-01");
  expect(csv.statusCode).toBe(200);
  expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(csv.headers["content-disposition"]).toBe(
    'attachment; filename="warranty-report-2025-01.csv"',
  );
  const rows = csv.body
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(rows[0]).toBe("section,key,name,sold,claims,claimed_units,per_1000_sold,approved_cost");
  expect(rows[1]).toBe("total,2025-01..last,USD,12,3,5,416.7,40.00");
  expect(rows).toContain(`part,${a.partNumber},Brake pads,7,2,4,571.4,`);
  expect(rows).toContain("failure code,WEAR,Premature wear,,1,2,,");
  expect(rows).toContain(`month,${thisMonth},,7,2,4,571.4,40.00`);
  expect(rows).toContain("lot,'-5,,5,1,1,200.0,");
  expect(rows).toHaveLength(1 + 1 + 2 + 2 + 2 + 3);

  // Admins only.
  expect((await call(customer, "GET", "/api/warranty/report")).statusCode).toBe(403);
  expect((await call(customer, "GET", "/api/warranty/report.csv")).statusCode).toBe(403);
});

test("an admin sets the lots of lines already shipped from a CSV: all or nothing, every problem with its line", async () => {
  const part = await insertProduct(t.database.db, { priceCents: 1500, minimumOrder: 1 });
  const shippedId = await paidOrder(part.id, 2);
  await ship(shippedId, 2);
  const unshippedId = await paidOrder(part.id, 1);
  const numberOf = async (id: string) =>
    (await call(customer, "GET", `/api/orders/${id}`)).json().number as string;
  const shipped = await numberOf(shippedId);
  const unshipped = await numberOf(unshippedId);
  const upload = (text: string) => {
    const body = multipart({
      data: Buffer.from(text),
      filename: "lots.csv",
      type: "text/csv",
      field: "file",
    });
    return t.app.inject({
      method: "POST",
      url: "/api/shipments/lots",
      headers: { cookie: admin.cookie, ...body.headers },
      payload: body.payload,
    });
  };
  const lotsOf = async () =>
    (await call(admin, "GET", `/api/orders/${shippedId}/shipments`))
      .json()
      .shipments.flatMap((s: { lines: { lot: string | null }[] }) => s.lines.map((l) => l.lot));

  const refused = await upload(
    `order,line,lot\n${shipped},1,LOT-9\n${unshipped},1,LOT-9\n${shipped},x,LOT 9\n`,
  );
  expect(refused.statusCode, refused.body).toBe(200);
  expect(refused.json()).toEqual({
    applied: false,
    rows: 3,
    errors: [
      { line: 4, column: "line", message: "Enter the order's line as a number (1 = the first)" },
      { line: 4, column: "lot", message: LOT_MESSAGE },
    ],
  });
  const notShipped = await upload(`order,line,lot\n${shipped},1,LOT-9\n${unshipped},1,LOT-9\n`);
  expect(notShipped.json()).toEqual({
    applied: false,
    rows: 2,
    errors: [{ line: 3, message: `${unshipped} has no line 1 shipped` }],
  });
  expect(await lotsOf()).toEqual([null]);
  expect((await upload("order,lot\n")).json().errors).toEqual([
    { line: 1, column: "line", message: "Missing column line" },
  ]);

  const applied = await upload(`Order,Line,Lot\n${shipped},1, LOT-9 \n`);
  expect(applied.json()).toEqual({ applied: true, rows: 1, errors: [] });
  expect(await lotsOf()).toEqual(["LOT-9"]);
  // What the report counts as sold moves with the lot.
  const sold = await t.database.db
    .select({ lot: shippedUnits.lot, qty: shippedUnits.qty })
    .from(shippedUnits)
    .where(eq(shippedUnits.productId, part.id));
  expect(sold).toEqual([{ lot: "LOT-9", qty: 2 }]);
  expect((await call(customer, "POST", "/api/shipments/lots")).statusCode).toBe(403);
});

test("a report is kept a minute per range and kind (the page's first lots, the CSV's every lot); a failed one is not kept", async () => {
  let clock = 0;
  const asked: unknown[] = [];
  const report = keptReports(
    (query, lotLimit) => {
      asked.push([query, lotLimit]);
      return asked.length === 4
        ? Promise.reject(new Error("database away"))
        : Promise.resolve({ asOf: String(asked.length) } as WarrantyReport);
    },
    () => clock,
  );
  expect((await report({})).asOf).toBe("1");
  clock = 59_999;
  expect((await report({})).asOf).toBe("1");
  expect((await report({}, null)).asOf).toBe("2");
  expect((await report({ from: "2027-01" })).asOf).toBe("3");
  clock = 60_000;
  await expect(report({})).rejects.toThrow("database away");
  expect((await report({})).asOf).toBe("5");
  expect(asked).toHaveLength(5);
});
