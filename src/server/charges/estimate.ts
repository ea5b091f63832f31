import { shippingMessages } from "../../contract/shipping";
import { HttpError } from "../errors";
import {
  cheapest,
  shippingOptions,
  type Place,
  type ShippingOptionPriced,
  type ShippingZoneRule,
} from "../shipping/rates";
import {
  taxOrder,
  taxOrderIncluded,
  taxTreatment,
  type BuyerTax,
  type TaxRateRule,
} from "../tax/rules";

/**
 * What an order charges besides its lines: shipping and tax, as one pure function shared by the
 * cart's quote and the checkout, so the estimate a customer saw and the order they place agree
 * to the cent when nothing changed (docs/shipping.md).
 */

export interface ChargeFacts {
  /** Where it goes; null when the order names no place (nothing is charged). */
  place: Place | null;
  /** Zones serving the place's country (more do not change the answer). */
  zones: ShippingZoneRule[];
  /** Rates of the place's country. */
  rates: TaxRateRule[];
  /** The buyer's company's tax facts (reverse charge, exemption); absent: none. */
  buyer?: BuyerTax | null;
  /** The seller's country (STORE_COUNTRY): reverse charge is for other EU member states. */
  sellerCountry?: string;
  /**
   * A consumer's order priced with VAT included (docs/tax.md "Prices with VAT included"): the
   * lines and the shipping rates are gross, their VAT is the part they contain, nothing is added.
   * The rate is the place's; without a place, this one (the rate the prices were shown at).
   * Absent: net prices, tax added.
   */
  taxIncluded?: { rateMillipercent: number };
}

export interface ChargeLine {
  lineTotalCents: number;
  /** Units × the product's weight. */
  weightGrams: number;
  /**
   * Units × the product's core deposit (docs/core-charges.md): charged as its own line, not
   * taxed, not counted towards a "free over" shipping threshold. Absent: none.
   */
  coreDepositCents?: number;
}

export interface Charges {
  options: ShippingOptionPriced[];
  /** The method charged (null: no place, or nothing serves it). */
  method: ShippingOptionPriced | null;
  shippingCents: number;
  lineTax: number[];
  shippingTaxCents: number;
  taxCents: number;
  /** The place's rate charged (null: none, or 0 % for the buyer's reverse charge or exemption). */
  rate: TaxRateRule | null;
  /** The tax's name and rate as the order keeps them ("VAT reverse charge", 0). */
  taxName: string | null;
  taxRateMillipercent: number | null;
  /** The legal note of a 0 % treatment (reverse charge, exemption), else null. */
  taxNote: string | null;
  /** The buyer's tax id (its VAT id for reverse charge) when a note applies, else null. */
  buyerTaxId: string | null;
  subtotalCents: number;
  /** The lines' core deposits (untaxed; docs/core-charges.md). */
  coreDepositCents: number;
  /** subtotal + core deposits + shipping + tax (tax not added when the prices include it). */
  totalCents: number;
  /** The lines and shipping are gross and `taxCents` is the VAT they contain (`taxIncluded`). */
  pricesIncludeTax: boolean;
  /** Why the place cannot be served (no zone, too heavy, the chosen method gone). */
  problem: string | null;
}

/**
 * Shipping and tax for priced lines. `methodId`: the method the customer chose; when absent (or,
 * with `lenient`, no longer serving the place) the cheapest serving one is charged. Without a
 * place, or when nothing serves it, no shipping is charged and `problem` says why; tax then
 * applies to the lines alone (at the place's rate, if any).
 */
export function computeCharges(
  lines: readonly ChargeLine[],
  facts: ChargeFacts,
  methodId: string | null | undefined,
  opts: { lenient: boolean },
): Charges {
  const subtotalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  const treatment = taxTreatment(
    facts.rates,
    facts.place,
    facts.buyer ?? null,
    facts.sellerCountry ?? "",
  );
  const included = facts.taxIncluded;
  const rate =
    treatment.kind !== "standard"
      ? null
      : included && !facts.place
        ? shownRate(included.rateMillipercent)
        : treatment.rate;
  // Gross prices contain their VAT; net ones have it added.
  const taxOf = included ? taxOrderIncluded : taxOrder;
  const added = (tax: number) => (included ? 0 : tax);
  const taxFields = {
    rate,
    taxName: treatment.kind === "standard" ? (rate?.name ?? null) : treatment.name,
    taxRateMillipercent: treatment.kind === "standard" ? (rate?.rateMillipercent ?? null) : 0,
    taxNote: treatment.kind === "standard" ? null : treatment.note,
    buyerTaxId: treatment.kind === "standard" ? null : treatment.buyerTaxId,
  };
  const coreDepositCents = lines.reduce((sum, l) => sum + (l.coreDepositCents ?? 0), 0);
  const none = (problem: string | null): Charges => {
    const tax = taxOf(
      lines.map((l) => l.lineTotalCents),
      0,
      rate,
    );
    return {
      options: [],
      method: null,
      shippingCents: 0,
      lineTax: tax.lines,
      shippingTaxCents: 0,
      taxCents: tax.total,
      ...taxFields,
      subtotalCents,
      coreDepositCents,
      totalCents: subtotalCents + coreDepositCents + added(tax.total),
      pricesIncludeTax: !!included,
      problem,
    };
  };
  if (!facts.place) return none(null);
  const answer = shippingOptions(facts.zones, facts.place, {
    subtotalCents,
    weightGrams: lines.reduce((sum, l) => sum + l.weightGrams, 0),
  });
  if (!answer.ok) return none(answer.problem);
  let method = methodId ? (answer.options.find((o) => o.method.id === methodId) ?? null) : null;
  let problem: string | null = null;
  if (!method) {
    if (methodId && !opts.lenient) problem = shippingMessages.methodGone;
    method = cheapest(answer.options);
  }
  const shippingCents = method?.priceCents ?? 0;
  const tax = taxOf(
    lines.map((l) => l.lineTotalCents),
    shippingCents,
    rate,
  );
  return {
    options: answer.options,
    method,
    shippingCents,
    lineTax: tax.lines,
    shippingTaxCents: tax.shipping,
    taxCents: tax.total,
    ...taxFields,
    subtotalCents,
    coreDepositCents,
    totalCents: subtotalCents + coreDepositCents + shippingCents + added(tax.total),
    pricesIncludeTax: !!included,
    problem,
  };
}

/** The rate gross prices were shown at, when no place decides one (a cart without an address). */
const shownRate = (rateMillipercent: number): TaxRateRule => ({
  id: "included",
  country: "",
  region: "",
  name: "VAT",
  rateMillipercent,
  appliesToShipping: true,
});

/**
 * The checkout's reading of the charges: a place nobody ships to, or a chosen method that no
 * longer serves it, refuses the order with the reason (422).
 */
export function requireShippable(charges: Charges): Charges {
  if (charges.problem) {
    throw new HttpError(422, "not_shippable", charges.problem, {
      shippingMethodId: charges.problem,
    });
  }
  return charges;
}
