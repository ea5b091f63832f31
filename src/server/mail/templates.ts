import { paths } from "../../contract/paths";

/** A message ready for nodemailer: both versions, same words. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const STORE = "PartsWorks";

const escapeHtml = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

interface Layout {
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** A table after the paragraphs (an order's lines): label and amount per row, the last in bold. */
  table?: [string, string][];
  /** Links after the paragraphs (a parcel's tracking page): the label, then the address. */
  links?: { label: string; url: string }[];
  action?: { label: string; url: string };
  after?: string[];
  publicUrl: string;
}

/** The store's branded layout: a header bar, the words, one button, the link spelt out, a footer. */
function layout(m: Layout): MailContent {
  const text = [
    m.greeting,
    "",
    ...m.paragraphs.flatMap((p) => [p, ""]),
    ...(m.links ?? []).flatMap((l) => [`${l.label}: ${l.url}`, ""]),
    ...(m.table ? [...m.table.map(([label, amount]) => `${label}  ${amount}`), ""] : []),
    ...(m.action ? [`${m.action.label}: ${m.action.url}`, ""] : []),
    ...(m.after ?? []).flatMap((p) => [p, ""]),
    "—",
    `${STORE} · genuine car parts · ${m.publicUrl}`,
    "",
  ].join("\n");
  const p = (s: string) =>
    `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2937">${escapeHtml(s)}</p>`;
  const button = m.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(m.action.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">${escapeHtml(m.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#4b5563">If the button does not work, open this address: <a href="${escapeHtml(m.action.url)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(m.action.url)}</a></p>`
    : "";
  const table = m.table
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:14px;color:#1f2937;border-collapse:collapse">
${m.table
  .map(
    ([label, amount], i, all) =>
      `<tr><td style="padding:6px 0;border-top:1px solid #e5e7eb${i === all.length - 1 ? ";font-weight:700" : ""}">${escapeHtml(label)}</td><td align="right" style="padding:6px 0;border-top:1px solid #e5e7eb;white-space:nowrap${i === all.length - 1 ? ";font-weight:700" : ""}">${escapeHtml(amount)}</td></tr>`,
  )
  .join("\n")}
</table>`
    : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(m.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:#111827;padding:16px 24px"><a href="${escapeHtml(m.publicUrl)}" style="color:#ffffff;text-decoration:none;font-size:20px;font-weight:700">${STORE}</a></td></tr>
<tr><td style="padding:24px">
${p(m.greeting)}
${m.paragraphs.map(p).join("\n")}
${(m.links ?? []).map((l) => `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2937"><a href="${escapeHtml(l.url)}" style="color:#1d4ed8">${escapeHtml(l.label)}</a>: <span style="word-break:break-all">${escapeHtml(l.url)}</span></p>`).join("\n")}
${table}
${button}
${(m.after ?? []).map(p).join("\n")}
</td></tr>
<tr><td style="padding:16px 24px;background:#f9fafb;font-size:12px;color:#6b7280">${STORE} · genuine car parts · <a href="${escapeHtml(m.publicUrl)}" style="color:#6b7280">${escapeHtml(m.publicUrl)}</a></td></tr>
</table></td></tr></table>
</body></html>
`;
  return { subject: m.subject, text, html };
}

const hello = (name: string) => (name.trim() ? `Hello ${name.trim()},` : "Hello,");

export function passwordResetMail(opts: {
  name: string;
  url: string;
  expiresInMinutes: number;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: `Reset your ${STORE} password`,
    greeting: hello(opts.name),
    paragraphs: [
      `Someone (we hope you) asked to reset the password of your ${STORE} account. Choose a new password with the link below.`,
      `The link works once, for ${opts.expiresInMinutes} minutes. Setting a new password signs you out everywhere.`,
    ],
    action: { label: "Set a new password", url: opts.url },
    after: ["If you did not ask for this, ignore this email: your password stays as it is."],
    publicUrl: opts.publicUrl,
  });
}

export function verifyEmailMail(opts: {
  name: string;
  url: string;
  expiresInHours: number;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: `Confirm your email address for ${STORE}`,
    greeting: hello(opts.name),
    paragraphs: [
      `Welcome to ${STORE}. Please confirm that this email address is yours.`,
      `The link works for ${opts.expiresInHours} hours.`,
    ],
    action: { label: "Confirm my email address", url: opts.url },
    after: ["If you did not create an account, ignore this email."],
    publicUrl: opts.publicUrl,
  });
}

export function signUpAttemptMail(opts: { name: string; publicUrl: string }): MailContent {
  return layout({
    subject: `Someone tried to create a ${STORE} account with your address`,
    greeting: hello(opts.name),
    paragraphs: [
      `Someone just tried to create a new ${STORE} account with this email address. Your account is unchanged and nobody was signed in to it.`,
      `If it was you: you already have an account. Sign in, or choose a new password with "Forgot password?" on the login page.`,
    ],
    action: { label: "Go to the login page", url: `${opts.publicUrl}/login` },
    publicUrl: opts.publicUrl,
  });
}

export function passwordChangedMail(opts: { name: string; publicUrl: string }): MailContent {
  return layout({
    subject: `Your ${STORE} password was changed`,
    greeting: hello(opts.name),
    paragraphs: [
      `The password of your ${STORE} account was just changed.`,
      `If this was not you, choose a new password at once with "Forgot password?" on the login page.`,
    ],
    action: { label: "Go to the login page", url: `${opts.publicUrl}/login` },
    publicUrl: opts.publicUrl,
  });
}

/** What an order email says about the order. */
export interface OrderMailFacts {
  name: string;
  orderId: string;
  /** The order's lines as sold, with their amounts already formatted. */
  lines: { name: string; qty: number; amount: string }[];
  /** Shipping and tax rows ("Shipping (Express)", "Texas sales tax (6.25 %)"), when charged. */
  charges?: [string, string][];
  total: string;
  /** The order's tax note: reverse charge's legal note, or the exemption (as on the invoice). */
  taxNote?: string;
  /** The order's page on the store. */
  url: string;
  publicUrl: string;
}

const orderRef = (id: string) => id.slice(0, 8).toUpperCase();
const linesTable = (o: OrderMailFacts): [string, string][] => [
  ...o.lines.map((l): [string, string] => [`${l.qty} × ${l.name}`, l.amount]),
  ...(o.charges ?? []),
  ["Total", o.total],
];
const viewOrder = (o: { url: string }) => ({ label: "View your order", url: o.url });

export function orderPlacedMail(o: OrderMailFacts & { holdExpiresAt: string }): MailContent {
  return layout({
    subject: `Your ${STORE} order ${orderRef(o.orderId)} is placed`,
    greeting: hello(o.name),
    paragraphs: [
      `Thank you for your order ${orderRef(o.orderId)}. We hold its parts for you until ${o.holdExpiresAt}; please pay before then.`,
      ...(o.taxNote ? [o.taxNote] : []),
    ],
    table: linesTable(o),
    action: { label: "Pay for your order", url: o.url },
    publicUrl: o.publicUrl,
  });
}

/** Said on every email about an order paid with a test card. */
export const TEST_PAYMENT_NOTICE =
  "TEST payment: this order was paid with a test card; no money was taken.";

export function paymentReceivedMail(
  o: OrderMailFacts & { transactionId: string; testPayment: boolean; invoiceNumber?: string },
): MailContent {
  return layout({
    subject: `Payment received for your ${STORE} order ${orderRef(o.orderId)}`,
    greeting: hello(o.name),
    paragraphs: [
      ...(o.testPayment ? [TEST_PAYMENT_NOTICE] : []),
      `We received your payment of ${o.total} for order ${orderRef(o.orderId)}. Transaction id: ${o.transactionId}.`,
      ...(o.taxNote ? [o.taxNote] : []),
      ...(o.invoiceNumber ? [`Your invoice ${o.invoiceNumber} is attached (PDF).`] : []),
      "We will email you again when it ships.",
    ],
    table: linesTable(o),
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

export function orderShippedMail(
  o: OrderMailFacts & {
    /** The carrier's name and the tracking number, when the admin gave them. */
    tracking?: { carrier: string; number: string; url: string | null };
  },
): MailContent {
  return layout({
    subject: `Your ${STORE} order ${orderRef(o.orderId)} has shipped`,
    greeting: hello(o.name),
    paragraphs: [
      `Your order ${orderRef(o.orderId)} is on its way.`,
      ...(o.tracking
        ? [`It travels with ${o.tracking.carrier}, tracking number ${o.tracking.number}.`]
        : []),
    ],
    links: o.tracking?.url ? [{ label: "Track your parcel", url: o.tracking.url }] : undefined,
    table: linesTable(o),
    action: viewOrder(o),
    after: [`You can turn off shipping emails in My Info: ${o.publicUrl}${paths.dashboard}`],
    publicUrl: o.publicUrl,
  });
}

/** One parcel of an order (docs/partial-shipment.md): its lines, tracking and what is left. */
export function shipmentSentMail(
  o: OrderMailFacts & {
    /** What this parcel carries (the order's own `lines` are not listed). */
    shipped: { name: string; qty: number }[];
    /** What is still to ship after it (empty: the order is complete). */
    stillToShip: { name: string; qty: number }[];
    tracking?: { carrier: string; number: string; url: string | null };
  },
): MailContent {
  const complete = o.stillToShip.length === 0;
  return layout({
    subject: complete
      ? `The last parcel of your ${STORE} order ${orderRef(o.orderId)} has shipped`
      : `Part of your ${STORE} order ${orderRef(o.orderId)} has shipped`,
    greeting: hello(o.name),
    paragraphs: [
      `A parcel of your order ${orderRef(o.orderId)} is on its way.`,
      ...(o.tracking
        ? [`It travels with ${o.tracking.carrier}, tracking number ${o.tracking.number}.`]
        : []),
      complete
        ? "With it, every part of your order has shipped."
        : `Still to ship: ${o.stillToShip.map((l) => `${l.qty} × ${l.name}`).join(", ")}.`,
    ],
    links: o.tracking?.url ? [{ label: "Track your parcel", url: o.tracking.url }] : undefined,
    table: o.shipped.map((l): [string, string] => [`${l.qty} × ${l.name}`, "in this parcel"]),
    action: viewOrder(o),
    after: [`You can turn off shipping emails in My Info: ${o.publicUrl}${paths.dashboard}`],
    publicUrl: o.publicUrl,
  });
}

export function holdExpiringMail(o: OrderMailFacts & { holdExpiresAt: string }): MailContent {
  return layout({
    subject: `Your ${STORE} order ${orderRef(o.orderId)} is held until ${o.holdExpiresAt}`,
    greeting: hello(o.name),
    paragraphs: [
      `Your order ${orderRef(o.orderId)} is not paid yet. We hold its parts until ${o.holdExpiresAt}; after that the order is cancelled and the parts go back on sale.`,
    ],
    table: linesTable(o),
    action: { label: "Pay for your order", url: o.url },
    after: [`You can turn off these reminders in My Info: ${o.publicUrl}${paths.dashboard}`],
    publicUrl: o.publicUrl,
  });
}

export function holdExpiredMail(o: OrderMailFacts & { notApproved?: boolean }): MailContent {
  return layout({
    subject: `Your ${STORE} order ${orderRef(o.orderId)} was cancelled`,
    greeting: hello(o.name),
    paragraphs: [
      o.notApproved
        ? `Your order ${orderRef(o.orderId)} was not approved by your company's owners before its hold ended, so we cancelled it and its parts went back on sale. Nothing was charged.`
        : `Your order ${orderRef(o.orderId)} was not paid before its hold ended, so we cancelled it and its parts went back on sale. Nothing was charged.`,
      "You are welcome to order the parts again.",
    ],
    table: linesTable(o),
    action: { label: "Visit the store", url: o.publicUrl },
    publicUrl: o.publicUrl,
  });
}

export function orderCancelledMail(o: OrderMailFacts): MailContent {
  return layout({
    subject: `Your ${STORE} order ${orderRef(o.orderId)} was cancelled`,
    greeting: hello(o.name),
    paragraphs: [
      `We cancelled your unpaid order ${orderRef(o.orderId)} and its parts went back on sale. Nothing was charged.`,
      "If you did not expect this, please contact us. You are welcome to order the parts again.",
    ],
    table: linesTable(o),
    action: { label: "Visit the store", url: o.publicUrl },
    publicUrl: o.publicUrl,
  });
}

/** An invitation to join a company's trade account (src/server/companies/). */
export function companyInvitationMail(opts: {
  companyName: string;
  role: string;
  url: string;
  expiresInDays: number;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: `You are invited to buy for ${opts.companyName} at ${STORE}`,
    greeting: "Hello,",
    paragraphs: [
      `You are invited to join ${opts.companyName}'s trade account at ${STORE} as ${opts.role === "owner" ? "an owner" : `a ${opts.role}`}. Its members order at the company's own prices.`,
      `Accept with the link below, signed in with this email address (or create an account with it first). The link works for ${opts.expiresInDays} days.`,
    ],
    action: { label: "Accept the invitation", url: opts.url },
    after: ["If you did not expect this, ignore this email: nothing changes."],
    publicUrl: opts.publicUrl,
  });
}

/** Approvals (docs/approvals.md): what the owners, and then the buyer, are told. */
export interface ApprovalMailFacts extends OrderMailFacts {
  companyName: string;
  buyerName: string;
  buyerEmail: string;
  /** "over the per-order limit of $500.00" */
  reason: string;
  holdExpiresAt: string;
}

/** To each owner of the company: an order waits for their decision. */
export function approvalRequestedMail(o: ApprovalMailFacts & { approveUrl: string }): MailContent {
  return layout({
    subject: `Approve or decline order ${orderRef(o.orderId)} by ${o.buyerName || o.buyerEmail} for ${o.companyName}`,
    greeting: hello(o.name),
    paragraphs: [
      `${o.buyerName || o.buyerEmail} (${o.buyerEmail}) ordered for ${o.companyName}: order ${orderRef(o.orderId)}, ${o.total}, is ${o.reason}, so it waits for an owner's approval.`,
      `We hold its parts until ${o.holdExpiresAt}. If nobody decides by then, the order is cancelled and the parts go back on sale.`,
    ],
    table: linesTable(o),
    action: { label: "Approve or decline", url: o.approveUrl },
    publicUrl: o.publicUrl,
  });
}

/** To the buyer, instead of "your order is placed": it waits for an owner. */
export function approvalPendingMail(o: ApprovalMailFacts): MailContent {
  return layout({
    subject: `Your ${STORE} order ${orderRef(o.orderId)} is awaiting approval`,
    greeting: hello(o.name),
    paragraphs: [
      `Your order ${orderRef(o.orderId)} is ${o.reason}, so we sent it to the owners of ${o.companyName} for approval. We hold its parts until ${o.holdExpiresAt}.`,
      "We email you their answer; once it is approved you can pay for it.",
    ],
    table: linesTable(o),
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

const noteLines = (note: string | null, by: string) => (note ? [`${by} wrote: “${note}”`] : []);

/** To the buyer: an owner approved the order; it can be paid now. */
export function orderApprovedMail(
  o: OrderMailFacts & {
    decidedBy: string;
    note: string | null;
    holdExpiresAt: string;
    /** Settled on the company's account (net terms) when approved: nothing to pay by card. */
    onAccount?: boolean;
  },
): MailContent {
  return layout({
    subject: `Your ${STORE} order ${orderRef(o.orderId)} was approved`,
    greeting: hello(o.name),
    paragraphs: [
      `${o.decidedBy} approved your order ${orderRef(o.orderId)}.`,
      ...noteLines(o.note, o.decidedBy),
      o.onAccount
        ? "It is charged to your company's account: its invoice follows in a separate email."
        : `We hold its parts for you until ${o.holdExpiresAt}; please pay before then.`,
    ],
    table: linesTable(o),
    action: o.onAccount ? viewOrder(o) : { label: "Pay for your order", url: o.url },
    publicUrl: o.publicUrl,
  });
}

/** To the buyer: an owner declined the order; it is cancelled. */
export function orderDeclinedMail(
  o: OrderMailFacts & { decidedBy: string; note: string | null },
): MailContent {
  return layout({
    subject: `Your ${STORE} order ${orderRef(o.orderId)} was declined`,
    greeting: hello(o.name),
    paragraphs: [
      `${o.decidedBy} declined your order ${orderRef(o.orderId)}.`,
      ...noteLines(o.note, o.decidedBy),
      "The order is cancelled and its parts went back on sale. Nothing was charged.",
    ],
    table: linesTable(o),
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

/** An order placed on a company's account (net terms): no card, an invoice due on the terms. */
export function orderOnAccountMail(
  o: OrderMailFacts & { invoiceNumber: string; dueDate: string; terms: string },
): MailContent {
  return layout({
    subject: `Your ${STORE} order ${orderRef(o.orderId)} is placed on your company's account`,
    greeting: hello(o.name),
    paragraphs: [
      `Thank you for your order ${orderRef(o.orderId)}. It is charged to your company's account: invoice ${o.invoiceNumber} (${o.terms}) is attached (PDF) and due by ${o.dueDate}.`,
      "Pay it by bank transfer, quoting the invoice number. We will email you again when the order ships.",
    ],
    table: linesTable(o),
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

/** A reminder of an invoice on account: before its due date, or once it is overdue. */
export function invoiceReminderMail(o: {
  name: string;
  companyName: string;
  invoiceNumber: string;
  outstanding: string;
  dueDate: string;
  overdue: boolean;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: o.overdue
      ? `Invoice ${o.invoiceNumber} is overdue`
      : `Invoice ${o.invoiceNumber} is due on ${o.dueDate}`,
    greeting: hello(o.name),
    paragraphs: [
      o.overdue
        ? `Invoice ${o.invoiceNumber} of ${o.companyName} was due on ${o.dueDate} and ${o.outstanding} of it is still unpaid. Please pay it by bank transfer, quoting the invoice number, or tell us if you have paid it already.`
        : `A reminder that invoice ${o.invoiceNumber} of ${o.companyName} is due on ${o.dueDate}: ${o.outstanding} is still to pay. Please pay it by bank transfer, quoting the invoice number.`,
    ],
    publicUrl: o.publicUrl,
  });
}

/** An admin: the products below their reorder level today (the admin home lists them too). */
export function lowStockMail(o: {
  name: string;
  count: number;
  /** Part number and name, and "stock / reorder level", the least stock first. */
  products: { label: string; stock: string }[];
  url: string;
  publicUrl: string;
}): MailContent {
  const more = o.count - o.products.length;
  return layout({
    subject: o.count === 1 ? "1 product is low on stock" : `${o.count} products are low on stock`,
    greeting: hello(o.name),
    paragraphs: [
      `These products have less stock than their reorder level (stock / reorder level):`,
    ],
    table: o.products.map((p) => [p.label, p.stock]),
    after: more > 0 ? [`And ${more} more on the admin home.`] : [],
    action: { label: "Open the admin home", url: o.url },
    publicUrl: o.publicUrl,
  });
}

/** Quotes (docs/quotes.md): the buyer is told their quote is priced, with the lines and expiry. */
export function quoteSentMail(q: {
  name: string;
  reference: string;
  lines: [string, string][];
  total: string;
  expiresAt: string;
  url: string;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: `Your quote ${q.reference} is ready`,
    greeting: hello(q.name),
    paragraphs: [
      `We have priced your request for quote ${q.reference}. Accept it by ${q.expiresAt} to order at these prices (shipping and tax are added at acceptance, as at checkout).`,
    ],
    table: [...q.lines, ["Total", q.total]],
    action: { label: "See the quote", url: q.url },
    after: ["Questions? Write to us in the quote's messages."],
    publicUrl: q.publicUrl,
  });
}

/** A return's emails (docs/returns.md): approved with the instructions, refused with why, refunded. */
export interface ReturnMailFacts {
  name: string;
  orderId: string;
  lines: [string, string][];
  message: string | null;
  publicUrl: string;
}

export function returnApprovedMail(o: ReturnMailFacts): MailContent {
  return layout({
    subject: `Your return for order ${orderRef(o.orderId)} is approved`,
    greeting: hello(o.name),
    paragraphs: [
      `We accepted your return of these parts from order ${orderRef(o.orderId)}.`,
      `How to send them back: pack the parts in their original packaging, write the order number ${orderRef(o.orderId)} on a note inside, and send them to our returns address (on our contact page). When they arrive we refund them to the way you paid and email you a credit note.`,
      ...(o.message ? [o.message] : []),
    ],
    table: o.lines,
    action: { label: "View your order", url: `${o.publicUrl}${paths.order.to(o.orderId)}` },
    publicUrl: o.publicUrl,
  });
}

export function returnRefusedMail(o: ReturnMailFacts): MailContent {
  return layout({
    subject: `Your return for order ${orderRef(o.orderId)} was refused`,
    greeting: hello(o.name),
    paragraphs: [
      `We cannot accept your return of these parts from order ${orderRef(o.orderId)}.`,
      `Why: ${o.message ?? ""}`,
    ],
    table: o.lines,
    action: { label: "View your order", url: `${o.publicUrl}${paths.order.to(o.orderId)}` },
    publicUrl: o.publicUrl,
  });
}

/** A received return refunded: its credit note attached. */
export interface ReturnRefundedFacts {
  name: string;
  orderId: string;
  /** Formatted: `$40.00`. */
  amount: string;
  creditNoteNumber: string;
  /** On the company's account (net terms): credited, not paid back to a card. */
  onAccount: boolean;
  lines: [string, string][];
  publicUrl: string;
}

export function returnRefundedMail(o: ReturnRefundedFacts): MailContent {
  return layout({
    subject: `Your return for order ${orderRef(o.orderId)} is refunded`,
    greeting: hello(o.name),
    paragraphs: [
      `The parts you sent back from order ${orderRef(o.orderId)} arrived.`,
      o.onAccount
        ? `We credited ${o.amount} to your company's account: deduct it from what you owe.`
        : `We refunded ${o.amount} to the card you paid with. Your bank usually shows it within 5 to 10 business days.`,
      `Your credit note ${o.creditNoteNumber} is attached (PDF).`,
    ],
    table: o.lines,
    action: { label: "View your order", url: `${o.publicUrl}${paths.order.to(o.orderId)}` },
    publicUrl: o.publicUrl,
  });
}

/**
 * A payment the store could not apply (docs/refund-due.md), given back through the gateway:
 * "Your payment of $X was refunded".
 */
export interface PaymentRefundedFacts {
  name: string;
  /** The order it was paid for, when there was one. */
  orderId: string | null;
  /** Formatted: `$12.34`. */
  amount: string;
  /** Why the store could not keep it, in the store's words. */
  reason: string;
  publicUrl: string;
}

export function paymentRefundedMail(o: PaymentRefundedFacts): MailContent {
  const order = o.orderId ? ` for order ${orderRef(o.orderId)}` : "";
  return layout({
    subject: `Your payment of ${o.amount} was refunded`,
    greeting: hello(o.name),
    paragraphs: [
      `We could not use your payment of ${o.amount}${order} (${o.reason}), so we refunded it in full to the card you paid with.`,
      "Your bank usually shows the refund within 5 to 10 business days. You do not need to do anything.",
    ],
    ...(o.orderId
      ? { action: { label: "View your order", url: `${o.publicUrl}${paths.order.to(o.orderId)}` } }
      : {}),
    publicUrl: o.publicUrl,
  });
}
