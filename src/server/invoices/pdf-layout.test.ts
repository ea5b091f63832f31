import { PDFDocument, StandardFonts } from "pdf-lib";
import { expect, test } from "vitest";
import {
  overlappingBoxes,
  pdfText,
  pdfTextBoxes,
  type TextBox,
} from "../../../tests/support/pdf-text";
import type { SellerDetails } from "../config";
import { newOrderRows } from "../orders/placement";
import { invoiceSnapshot } from "./issue";
import { renderInvoicePdf } from "./pdf";
import type { InvoiceSnapshot } from "./snapshot";

const seller: SellerDetails = {
  name: "PartsWorks",
  legalName: "PartsWorks Manufacturing GmbH & Co. KG",
  address: ["Industriestrasse 12", "70173 Stuttgart", "Germany"],
  taxId: "DE123456789",
  email: "accounts@partsworks.example",
  bank: { name: "Example Bank", account: "DE89 3704 0044 0532 0130 00", code: "COBADEFFXXX" },
};

const heading = {
  number: "INV-2026-000123",
  issuedAt: new Date("2026-12-02T10:00:00Z"),
  dueAt: new Date("2027-01-01T10:00:00Z"),
};

const LONG_NAME =
  "Heavy-duty ceramic front brake pad set with wear sensors, shims and fitting kit for commercial vans and pick-ups";

/** An invoice with most of what a page can hold: many lines, long names, two rates, notes. */
const busyInvoice: InvoiceSnapshot = {
  seller: { ...seller, address: [...seller.address] },
  buyer: {
    name: "Dana Fleetmanager-Longname",
    email: "dana.fleetmanager@harbour-logistics.example",
    address: ["Harbour Logistics Ltd", "Unit 4, 1200 Very Long Industrial Estate Road", "NY 10001"],
    company: "Harbour Logistics International Holdings Ltd",
    taxId: "GB123456789",
  },
  order: {
    id: "00000000-0000-4000-8000-000000000001",
    number: "PW-100234",
    placedAt: "2026-12-01T09:00:00.000Z",
    poReference: "PO-2026-ACME-00042-WINTER-SERVICE",
  },
  lines: Array.from({ length: 8 }, (_, i) => ({
    line: i + 1,
    partNumber: `BRK-${1000 + i}-LONGPARTNUMBER`,
    description: i % 2 === 0 ? LONG_NAME : `Oil filter ${i}`,
    ...(i === 1 && { vehicle: "2016 Toyota Corolla 1.8 Hybrid Dynamic Force Touring Sports" }),
    qty: i === 0 ? 12_500 : i + 1,
    unitPriceCents: 259_00 + i * 1_234_56,
    netCents: (259_00 + i * 1_234_56) * (i === 0 ? 12_500 : i + 1),
    taxCents: 1_036_00 + i * 98_765,
  })),
  shipping: { method: "Express freight, two-man delivery", netCents: 99_00, taxCents: 8_79 },
  taxes: [
    {
      name: "New York State sales tax",
      rateMillipercent: 4000,
      baseCents: 12_345_678_00,
      taxCents: 493_827_12,
    },
    {
      name: "New York City sales tax",
      rateMillipercent: 4875,
      baseCents: 12_345_678_00,
      taxCents: 601_851_80,
    },
  ],
  subtotalCents: 12_345_579_00,
  shippingCents: 99_00,
  taxCents: 1_095_678_92,
  totalCents: 13_441_356_92,
  currency: "USD",
  paymentTerms: "Net 30: pay by bank transfer by 1 Jan 2027, quoting the invoice number",
  payment: { gateway: null, transactionId: null, test: false },
  notes: ["Tax exempt: exemption certificate NY-EXEMPT-0000001 on file"],
  bankTransfer: {
    payee: seller.legalName!,
    bank: seller.bank!.name,
    account: seller.bank!.account,
    code: seller.bank!.code,
  },
};

const creditNote: InvoiceSnapshot = {
  ...busyInvoice,
  lines: busyInvoice.lines.slice(0, 3).map((l) => ({
    ...l,
    netCents: -l.netCents,
    taxCents: -l.taxCents,
  })),
  paymentTerms: "Refunded to the card the order was paid with",
  notes: ["Return of parts (did not fit)"],
  creditNote: { corrects: "INV-2026-000123", reason: "Return of parts (did not fit)" },
};
delete creditNote.bankTransfer;

const describeBox = (b: TextBox) =>
  `"${b.text}" (page ${b.page}, x ${b.left.toFixed(1)}–${b.right.toFixed(1)}, y ${b.bottom.toFixed(1)}–${b.top.toFixed(1)})`;

async function expectNoOverlap(bytes: Uint8Array) {
  const boxes = await pdfTextBoxes(bytes);
  expect(boxes.length).toBeGreaterThan(40);
  expect(
    overlappingBoxes(boxes).map(([a, b]) => `${describeBox(a)} over ${describeBox(b)}`),
  ).toEqual([]);
  // Nothing runs off the page's sides either (A4: 595 points wide).
  for (const b of boxes) {
    expect(b.left, describeBox(b)).toBeGreaterThanOrEqual(0);
    expect(b.right, describeBox(b)).toBeLessThanOrEqual(595.28);
  }
}

test("the check finds text drawn over text (the totals as they were: label and amount)", async () => {
  const doc = await PDFDocument.create();
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595.28, 841.89]);
  // As the old layout drew them: the label right-aligned 29 points before the amount's end.
  const label = "Total (USD)";
  const amount = "$269.36";
  page.drawText(label, {
    x: 518 - bold.widthOfTextAtSize(label, 11),
    y: 300,
    size: 11,
    font: bold,
  });
  page.drawText(amount, {
    x: 547 - bold.widthOfTextAtSize(amount, 11),
    y: 300,
    size: 11,
    font: bold,
  });
  page.drawText("Subtotal", { x: 100, y: 320, size: 9, font: bold });
  const pairs = overlappingBoxes(await pdfTextBoxes(await doc.save()));
  expect(pairs.map(([a, b]) => [a.text, b.text])).toEqual([[label, amount]]);
});

test("an invoice with many lines, long names, shipping, two tax rates and notes: no text overlaps", async () => {
  const bytes = await renderInvoicePdf(heading, busyInvoice);
  await expectNoOverlap(bytes);
  const { text } = await pdfText(bytes);
  // Both rates, each with its base, and the amounts in full.
  expect(text).toContain("New York State sales tax 4 % of $12,345,678.00");
  expect(text).toContain("New York City sales tax 4.875 % of $12,345,678.00");
  expect(text).toContain("$13,441,356.92");
  // A long name runs over lines: its words are there, past the first line's width.
  expect(text).toContain("wear sensors");
});

test("a credit note: no text overlaps", async () => {
  const bytes = await renderInvoicePdf({ ...heading, number: "CN-2026-000007" }, creditNote);
  await expectNoOverlap(bytes);
  const { text } = await pdfText(bytes);
  expect(text).toContain("CREDIT NOTE");
  expect(text).toContain("Corrects invoice INV-2026-000123");
  expect(text).not.toContain("Bank transfer");
});

test("a 60-line invoice over several pages: no text overlaps on any page", async () => {
  const lines = Array.from({ length: 60 }, (_, i) => ({
    ...busyInvoice.lines[i % 8]!,
    line: i + 1,
  }));
  const bytes = await renderInvoicePdf(heading, { ...busyInvoice, lines });
  const boxes = await pdfTextBoxes(bytes);
  expect(new Set(boxes.map((b) => b.page)).size).toBeGreaterThan(1);
  await expectNoOverlap(bytes);
});

/** An order on net terms for a company with a tax id, as the checkout writes it. */
function orderOnAccount() {
  return newOrderRows(
    { id: "user-1", email: "buyer@fleet.example", name: "Bo Buyer" },
    {
      id: "00000000-0000-4000-8000-000000000002",
      lines: [
        {
          productId: "00000000-0000-4000-8000-000000000003",
          productName: "Front brake pads",
          partNumber: "BRK-1",
          unitPriceCents: 25_900,
          qty: 1,
          taxCents: 2_299,
          coreDepositCents: 0,
        },
      ],
      totalCents: 28_199,
      currency: "USD",
      charges: {
        shippingCents: 0,
        shippingMethod: null,
        taxCents: 2_299,
        shippingTaxCents: 0,
        taxName: "New York City sales tax",
        taxRateMillipercent: 8875,
      },
      delivery: { phone: "5550100", address: "1 Fleet Yard, New York, NY 10001" },
      approval: null,
      holdExpiresAt: new Date("2026-12-03T00:00:00Z"),
    },
    new Date("2026-12-02T10:00:00Z"),
    100234,
  );
}

test("a Net 30 invoice names the seller's legal name, tax id and bank, the buyer's tax id, the rate, terms and due date", async () => {
  const { row, items } = orderOnAccount();
  const dueAt = new Date("2027-01-01T10:00:00Z");
  const snapshot = invoiceSnapshot(
    row,
    items,
    seller,
    { name: "Fleet Co", taxId: "US-EIN 12-3456789" },
    { terms: "net30", dueAt },
  );
  const bytes = await renderInvoicePdf({ ...heading, dueAt }, snapshot);
  await expectNoOverlap(bytes);
  const { text } = await pdfText(bytes);
  for (const expected of [
    "PartsWorks Manufacturing GmbH & Co. KG",
    "Tax id: DE123456789",
    "Tax id: US-EIN 12-3456789",
    "Order PW-100234",
    "Due date 1 Jan 2027",
    "New York City sales tax 8.875 % of $259.00",
    "Net 30: pay by bank transfer by 1 Jan 2027",
    "Pay to: PartsWorks Manufacturing GmbH & Co. KG",
    "Bank: Example Bank",
    "IBAN / account: DE89 3704 0044 0532 0130 00",
    "BIC / routing: COBADEFFXXX",
    "Reference: INV-2026-000123",
  ]) {
    expect(text).toContain(expected);
  }
});

test("a card invoice asks for no bank transfer", async () => {
  const { row, items } = orderOnAccount();
  const snapshot = invoiceSnapshot(row, items, seller, null);
  expect(snapshot.bankTransfer).toBeUndefined();
  const { text } = await pdfText(await renderInvoicePdf(heading, snapshot));
  expect(text).toContain("Paid by card: nothing is due");
  expect(text).not.toContain("Bank transfer");
  expect(text).not.toContain("COBADEFFXXX");
});

test("an invoice's dates read as the pages write them: September is 'Sep'", async () => {
  const { row, items } = orderOnAccount();
  const snapshot = invoiceSnapshot(row, items, seller, null);
  const issuedAt = new Date("2026-09-12T23:30:00Z");
  const { text } = await pdfText(await renderInvoicePdf({ ...heading, issuedAt }, snapshot));
  expect(text).toContain("Issue date 12 Sep 2026");
});
