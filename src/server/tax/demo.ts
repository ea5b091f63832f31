import type { DbOrTx } from "../db/database";
import { taxRates } from "./tables";

/** The demo's tax rates: a few US states' sales tax (and Manhattan's), EU VAT, the UK's VAT. */
export async function seedDemoTax(tx: DbOrTx): Promise<void> {
  const state = (region: string, name: string, percent: number, shipping: boolean) => ({
    country: "US",
    region,
    name,
    rateMillipercent: Math.round(percent * 1000),
    appliesToShipping: shipping,
  });
  const vat = (country: string, percent: number) => ({
    country,
    region: "",
    name: "VAT",
    rateMillipercent: Math.round(percent * 1000),
    appliesToShipping: true,
  });
  await tx.insert(taxRates).values([
    state("CA", "California sales tax", 7.25, false),
    state("TX", "Texas sales tax", 6.25, true),
    state("NY", "New York sales tax", 4, true),
    // Manhattan's ZIP codes: the state's 4 % and New York City's (docs/tax.md).
    { ...state("NY", "New York City sales tax", 8.875, true), postalCode: "10001-10282" },
    state("IL", "Illinois sales tax", 6.25, false),
    state("WA", "Washington sales tax", 6.5, true),
    state("FL", "Florida sales tax", 6, true),
    vat("DE", 19),
    vat("FR", 20),
    vat("NL", 21),
    vat("BE", 21),
    vat("AT", 20),
    vat("IT", 22),
    vat("ES", 21),
    vat("IE", 23),
    vat("PL", 23),
    vat("GB", 20),
  ]);
}
