import { discountLineLabel } from "../../contract/discount-codes";
import { dueDateWords } from "../../contract/payment-words";
import { vatIncludedWords } from "../../contract/tax";
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { formatCents } from "../money";
import type { InvoiceSnapshot } from "./snapshot";

/** What the PDF needs besides the snapshot: the invoice's own number and dates. */
export interface InvoiceHeading {
  number: string;
  issuedAt: Date;
  dueAt: Date;
}

// A4 in points; every measure below is in points (1/72 inch).
const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const RIGHT = PAGE[0] - MARGIN;
const ROW = 15;
const FOOTER_SPACE = 60;
const GREY = rgb(0.35, 0.35, 0.35);
const RULE = rgb(0.8, 0.8, 0.8);

/**
 * The table's columns: where each starts (or, right-aligned, ends) and how wide it may be. Every
 * cell is cut to its width, so no two cells can meet (invoices.test.ts reads the boxes back).
 */
const COLUMNS = {
  part: { x: MARGIN, width: 82 },
  description: { x: MARGIN + 88, width: 150 },
  qty: { right: MARGIN + 280, width: 36 },
  unit: { right: MARGIN + 354, width: 68 },
  net: { right: MARGIN + 428, width: 68 },
  tax: { right: RIGHT, width: 65 },
};
/** The totals: amounts right-aligned at the right margin, their labels ending this far before. */
const TOTALS_VALUE_WIDTH = 90;
/** Lines of a long product name before the rest is cut. */
const DESCRIPTION_LINES = 3;

/** Before a line's vehicle on the invoice ("For: 2016 Toyota Corolla 1.8"). */
export const VEHICLE_PREFIX = "For: ";

/** The issue and due dates as every page and email says them: "12 Sep 2026" (UTC). */
const dateOf = dueDateWords;

/**
 * Renders an invoice to PDF from its snapshot alone, with the PDF standard fonts (Helvetica: no
 * font file is read or downloaded). The same snapshot gives the same bytes (the document's dates
 * are the issue date). Characters the standard fonts cannot show are written without their
 * accents, or as "?".
 */
export async function renderInvoicePdf(
  heading: InvoiceHeading,
  s: InvoiceSnapshot,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const credit = s.creditNote !== undefined;
  const title = credit ? "Credit note" : "Invoice";
  doc.setTitle(`${title} ${heading.number}`);
  doc.setAuthor(s.seller.name);
  doc.setProducer("PartsWorks");
  doc.setCreator("PartsWorks");
  doc.setCreationDate(heading.issuedAt);
  doc.setModificationDate(heading.issuedAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const shown = new Set(regular.getCharacterSet());
  const money = (cents: number) => formatCents(cents, s.currency);

  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const text = (
    value: string,
    x: number,
    opts: {
      font?: PDFFont;
      size?: number;
      align?: "right";
      width?: number;
      color?: typeof GREY;
    } = {},
  ) => {
    const font = opts.font ?? regular;
    const size = opts.size ?? 9;
    let line = clean(value, shown);
    if (opts.width !== undefined) line = fit(line, font, size, opts.width);
    const left = opts.align === "right" ? x - font.widthOfTextAtSize(line, size) : x;
    page.drawText(line, { x: left, y, size, font, color: opts.color ?? rgb(0, 0, 0) });
  };
  const rule = () =>
    page.drawLine({
      start: { x: MARGIN, y: y - 4 },
      end: { x: RIGHT, y: y - 4 },
      thickness: 0.5,
      color: RULE,
    });
  const newPage = () => {
    page = doc.addPage(PAGE);
    pages.push(page);
    y = PAGE[1] - MARGIN;
  };
  const tableHeader = () => {
    text("Part number", COLUMNS.part.x, { font: bold });
    text("Description", COLUMNS.description.x, { font: bold });
    text("Qty", COLUMNS.qty.right, { font: bold, align: "right" });
    text("Unit price", COLUMNS.unit.right, { font: bold, align: "right" });
    // Gross amounts (VAT included, docs/tax.md): the VAT column is what each contains.
    text(s.pricesIncludeTax ? "Amount" : "Net", COLUMNS.net.right, { font: bold, align: "right" });
    text(s.pricesIncludeTax ? "VAT incl." : "Tax", COLUMNS.tax.right, {
      font: bold,
      align: "right",
    });
    rule();
    y -= ROW + 2;
  };
  /** Room for `rows` more rows on this page, or a new page (with the table's header when asked). */
  const room = (rows: number, header: boolean) => {
    if (y - rows * ROW >= FOOTER_SPACE) return;
    newPage();
    text(`${title} ${heading.number} (continued)`, MARGIN, { font: bold, size: 10 });
    y -= ROW * 2;
    if (header) tableHeader();
  };

  newPage();
  // The seller, top left; the invoice's number and dates, top right.
  const top = y;
  const sellerWidth = 260;
  text(s.seller.name, MARGIN, { font: bold, size: 16, width: sellerWidth });
  y -= 20;
  const legalName = s.seller.legalName ?? s.seller.name;
  for (const l of [
    ...(legalName !== s.seller.name ? [legalName] : []),
    ...s.seller.address,
    ...(s.seller.taxId ? [`Tax id: ${s.seller.taxId}`] : []),
    ...(s.seller.email ? [s.seller.email] : []),
  ]) {
    text(l, MARGIN, { color: GREY, width: sellerWidth });
    y -= 12;
  }
  const sellerBottom = y;
  y = top;
  text(title.toUpperCase(), RIGHT, { font: bold, size: 20, align: "right" });
  y -= 24;
  const facts: [string, string][] = [
    [`${title} number`, heading.number],
    ["Issue date", dateOf(heading.issuedAt)],
    ...(credit
      ? ([["Corrects invoice", s.creditNote?.corrects ?? "-"]] as [string, string][])
      : ([["Due date", dateOf(heading.dueAt)]] as [string, string][])),
    ["Order", s.order.number],
    ...(s.order.poReference ? ([["PO reference", s.order.poReference]] as [string, string][]) : []),
  ];
  for (const [label, value] of facts) {
    text(label, RIGHT - 120, { color: GREY, align: "right", width: 90 });
    text(value, RIGHT, { font: bold, align: "right", width: 114 });
    y -= 12;
  }
  y = Math.min(y, sellerBottom) - 18;

  // The buyer, and where the parts went.
  const buyerTop = y;
  text("Bill to", MARGIN, { font: bold, size: 10 });
  y -= 14;
  for (const l of [
    s.buyer.name,
    ...(s.buyer.company ? [s.buyer.company] : []),
    ...(s.buyer.taxId ? [`Tax id: ${s.buyer.taxId}`] : []),
    s.buyer.email,
  ]) {
    text(l, MARGIN, { width: 240 });
    y -= 12;
  }
  const billBottom = y;
  y = buyerTop;
  const shipX = MARGIN + 270;
  text("Ship to", shipX, { font: bold, size: 10 });
  y -= 14;
  for (const l of s.buyer.address) {
    text(l, shipX, { width: RIGHT - shipX });
    y -= 12;
  }
  y = Math.min(y, billBottom) - 18;

  // The lines.
  tableHeader();
  for (const l of s.lines) {
    // A long name runs over a few lines (the rest cut) rather than under the next column.
    const wrapped = wrap(clean(l.description, shown), regular, 9, COLUMNS.description.width);
    // The last line keeps the rest, cut to the column's width with "..." by `text`.
    const nameLines =
      wrapped.length <= DESCRIPTION_LINES
        ? wrapped
        : [
            ...wrapped.slice(0, DESCRIPTION_LINES - 1),
            wrapped.slice(DESCRIPTION_LINES - 1).join(" "),
          ];
    room(nameLines.length + (l.vehicle !== undefined ? 1 : 0), true);
    const cell = (value: string, column: { right: number; width: number }) =>
      text(value, column.right, { align: "right", width: column.width });
    text(l.partNumber ?? "-", COLUMNS.part.x, { width: COLUMNS.part.width });
    cell(String(l.qty), COLUMNS.qty);
    cell(money(l.unitPriceCents), COLUMNS.unit);
    cell(money(l.netCents), COLUMNS.net);
    cell(money(l.taxCents), COLUMNS.tax);
    nameLines.forEach((name, i) => {
      if (i > 0) y -= 11;
      text(name, COLUMNS.description.x, { width: COLUMNS.description.width });
    });
    if (l.vehicle !== undefined) {
      // Under the product's name, smaller: the vehicle the customer bought it for.
      y -= 11;
      text(`${VEHICLE_PREFIX}${l.vehicle}`, COLUMNS.description.x, {
        width: COLUMNS.description.width,
        size: 8,
        color: GREY,
      });
    }
    y -= ROW;
  }
  y += ROW;
  rule();
  y -= ROW + 4;

  // The totals, with the tax per rate.
  const totals: [string, string, boolean][] = [
    ["Subtotal", money(s.subtotalCents), false],
    ...(s.discount
      ? [
          [discountLineLabel(s.discount.code), money(-s.discount.cents), false] as [
            string,
            string,
            boolean,
          ],
        ]
      : []),
    [
      s.shipping.method ? `Shipping (${s.shipping.method})` : "Shipping",
      money(s.shipping.netCents),
      false,
    ],
    ...(s.pricesIncludeTax ? [] : taxRows(s, money)),
    [`Total (${s.currency})`, money(s.totalCents), true],
    // Gross amounts: the VAT the total contains, not added (docs/tax.md).
    ...(s.pricesIncludeTax
      ? [
          [
            vatIncludedWords.label((s.taxes[0]?.rateMillipercent ?? 0) / 1000),
            money(s.taxCents),
            false,
          ] as [string, string, boolean],
        ]
      : []),
  ];
  // Long notes (reverse charge's legal wording) run over lines rather than off the page.
  const noteLines = s.notes.flatMap((n) => wrap(clean(n, shown), bold, 9, RIGHT - MARGIN));
  const termLines = wrap(
    clean(`Payment terms: ${s.paymentTerms}`, shown),
    regular,
    9,
    RIGHT - MARGIN,
  );
  const transfer = s.bankTransfer;
  const bankLines = transfer
    ? [
        `Pay to: ${transfer.payee}`,
        `Bank: ${transfer.bank}`,
        `IBAN / account: ${transfer.account}`,
        ...(transfer.code ? [`BIC / routing: ${transfer.code}`] : []),
        `Reference: ${heading.number}`,
      ]
    : [];
  room(totals.length + 3 + termLines.length + bankLines.length + noteLines.length, false);
  // The labels end before the widest amount can start: a label never runs into its amount.
  const labelRight = RIGHT - TOTALS_VALUE_WIDTH - 6;
  for (const [label, value, strong] of totals) {
    const font = strong ? bold : regular;
    const size = strong ? 11 : 9;
    text(label, labelRight, { font, size, align: "right", width: labelRight - MARGIN });
    text(value, RIGHT, { font, size, align: "right", width: TOTALS_VALUE_WIDTH });
    y -= strong ? ROW + 2 : ROW;
  }
  y -= 8;
  for (const line of termLines) {
    text(line, MARGIN);
    y -= 12;
  }
  if (bankLines.length > 0) {
    text("Bank transfer", MARGIN, { font: bold });
    y -= 12;
    for (const line of bankLines) {
      text(line, MARGIN, { width: RIGHT - MARGIN });
      y -= 12;
    }
  }
  if (s.payment.transactionId) {
    text(`Transaction: ${s.payment.transactionId}`, MARGIN, { color: GREY, width: RIGHT - MARGIN });
    y -= 12;
  }
  for (const note of noteLines) {
    text(note, MARGIN, { font: bold });
    y -= 12;
  }

  pages.forEach((p, i) => {
    page = p;
    y = MARGIN - 20;
    text(`${heading.number} - page ${i + 1} of ${pages.length}`, RIGHT, {
      color: GREY,
      size: 8,
      align: "right",
    });
  });
  return doc.save({ useObjectStreams: false });
}

/**
 * The text as the standard fonts can show it (WinAnsi): one line, accents dropped where the
 * letter is not in the font ("Ł" has no plain form there: "?").
 */
export function clean(value: string, shown: Set<number>): string {
  let out = "";
  for (const ch of value.replace(/\s+/g, " ").trim()) {
    const code = ch.codePointAt(0)!;
    if (shown.has(code)) {
      out += ch;
      continue;
    }
    const plain = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
    out += plain && [...plain].every((c) => shown.has(c.codePointAt(0)!)) ? plain : "?";
  }
  return out;
}

/** The text cut to a width, with an ellipsis when cut. */
function fit(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}...`, size) > width)
    cut = cut.slice(0, -1);
  return `${cut.trimEnd()}...`;
}

/** The text in lines of at most a width, broken between words. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The tax rows of a net invoice: the tax per rate ("VAT 19 % of €34.51"), else one "Tax" row. */
function taxRows(
  s: InvoiceSnapshot,
  money: (cents: number) => string,
): [string, string, boolean][] {
  if (s.taxes.length === 0) return [["Tax", money(s.taxCents), false]];
  return s.taxes.map((t) => [
    `${t.name} ${t.rateMillipercent / 1000} % of ${money(t.baseCents)}`,
    money(t.taxCents),
    false,
  ]);
}
