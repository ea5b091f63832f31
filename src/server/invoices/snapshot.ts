/**
 * What an invoice says, frozen when it is issued (the `invoices.snapshot` column). The PDF and
 * every answer about the invoice are made from this alone, never from the live order, product or
 * account: an issued invoice never changes (a correction is a credit note and a new invoice).
 */
export interface InvoiceSnapshot {
  /** The store as it was named and registered when the invoice was issued (SELLER_* settings). */
  seller: {
    name: string;
    /** The address, one line each. */
    address: string[];
    taxId: string | null;
    email: string | null;
    /** The registered name (absent on invoices issued before it was printed: `name`). */
    legalName?: string;
  };
  buyer: {
    name: string;
    email: string;
    /** The delivery address, one line each (a free-text address is one line). */
    address: string[];
    /** The buyer's company and its tax id, when the account belongs to one. */
    company: string | null;
    taxId: string | null;
  };
  /** The order invoiced: its id, its short number as the store shows it, its PO reference. */
  order: { id: string; number: string; placedAt: string; poReference: string | null };
  lines: InvoiceLine[];
  shipping: { method: string | null; netCents: number; taxCents: number };
  /** The tax per rate: what it was charged on and how much (one row per rate; none when untaxed). */
  taxes: { name: string; rateMillipercent: number; baseCents: number; taxCents: number }[];
  subtotalCents: number;
  /**
   * The order's discount code and what it took off the subtotal, before tax (docs/pricing.md
   * "Discount codes"); absent: none (and on invoices issued before codes).
   */
  discount?: { code: string; cents: number };
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  /**
   * A consumer's order with VAT included (docs/tax.md "Prices with VAT included"): the lines'
   * amounts, the shipping and the total are gross, `taxCents` (and each line's) the VAT they
   * contain, printed "Includes VAT (19 %) €8.31" under the total rather than added. Absent: net
   * amounts, tax added (every invoice issued before).
   */
  pricesIncludeTax?: boolean;
  currency: string;
  /** How it is paid ("Paid by card") and when it is due (card payments: the issue date). */
  paymentTerms: string;
  payment: { gateway: string | null; transactionId: string | null; test: boolean };
  /**
   * On account (net terms): where the bank transfer goes, as configured when issued (absent on card
   * payments, credit notes, and when the store had no bank details set).
   */
  bankTransfer?: { payee: string; bank: string; account: string; code: string | null };
  /** Lines printed under the totals (a test payment's notice; later, reverse charge's legal note). */
  notes: string[];
  /**
   * A credit note's: the invoice it corrects (its number). Absent on invoices. A credit note's
   * amounts are negative (the refunded lines and their tax).
   */
  creditNote?: { corrects: string | null; reason: string };
}

export interface InvoiceLine {
  line: number;
  partNumber: string | null;
  description: string;
  /**
   * The vehicle the part was bought for, as the order line kept it ("For: 2016 Toyota Corolla
   * 1.8"); absent when none was chosen, and on invoices issued before lines kept one.
   */
  vehicle?: string;
  qty: number;
  unitPriceCents: number;
  /** Unit price × quantity, net of tax (of an invoice with VAT included, gross). */
  netCents: number;
  /** The line's tax, rounded per line as the order charged it. */
  taxCents: number;
  /**
   * A core deposit's line (docs/core-charges.md): the deposit of order line `line`'s units,
   * untaxed, printed below it. Absent on a part's line.
   */
  coreDeposit?: boolean;
}
