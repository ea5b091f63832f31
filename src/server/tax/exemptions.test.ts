import { describe, expect, test } from "vitest";
import { checkEuVatId, EU_VAT_FORMATS, isEuCountry } from "../../contract/vat-ids";
import { computeCharges } from "../charges/estimate";
import { decideTaxId } from "./company-tax";
import { REVERSE_CHARGE_NOTE, taxTreatment, type BuyerTax, type TaxRateRule } from "./rules";

const rate = (country: string, percent: number): TaxRateRule => ({
  id: country,
  country,
  region: "",
  name: `${country} VAT`,
  rateMillipercent: percent * 1000,
  appliesToShipping: true,
});
const rates = [rate("DE", 19), rate("FR", 20), rate("NL", 21)];

const vat = (taxId: string, country: string, validated = true): BuyerTax => ({
  taxId,
  taxIdCountry: country,
  taxIdValidated: validated,
  exemptionCertificate: null,
});
const DE = { country: "DE", region: null };
const FR = { country: "FR", region: null };

describe("EU VAT number forms, offline", () => {
  test.each([
    ["DE123456789", "DE"],
    ["de 123 456 789", "DE"],
    ["FR12345678901", "FR"],
    ["FRXY123456789", "FR"],
    ["NL123456789B01", "NL"],
    ["IT12345678901", "IT"],
    ["ESX1234567X", "ES"],
    ["ES12345678Z", "ES"],
    ["ATU12345678", "AT"],
    ["BE0123456789", "BE"],
    ["BE1234567890", "BE"],
    ["PL1234567890", "PL"],
    ["SE123456789701", "SE"],
    ["IE1234567T", "IE"],
    ["IE1234567TW", "IE"],
    ["IE1A23456T", "IE"],
    ["EL123456789", "GR"],
  ])("%s is a well-formed %s VAT number", (id, country) => {
    const check = checkEuVatId(id);
    expect(check).toMatchObject({ ok: true, country });
  });

  test.each([
    ["DE12345678", "Not a valid German VAT number: DE and 9 digits, like DE123456789"],
    ["DE1234567890", "Not a valid German VAT number"],
    ["FR1234567890", "Not a valid French VAT number"],
    ["NL123456789A01", "Not a valid Dutch VAT number: NL and 9 digits, B and 2 digits"],
    ["IT1234567890", "Not a valid Italian VAT number"],
    ["ES123456789", "Not a valid Spanish VAT number"],
    ["AT12345678", "Not a valid Austrian VAT number: AT and U and 8 digits"],
    ["BE2123456789", "Not a valid Belgian VAT number"],
    ["PL123456789", "Not a valid Polish VAT number"],
    ["SE123456789012", "Not a valid Swedish VAT number"],
    ["IE12345678", "Not a valid Irish VAT number"],
    ["GR123456789", "Start an EU VAT number with its country prefix"],
    ["US123456789", "Start an EU VAT number with its country prefix"],
  ])("%s is refused: %s", (id, message) => {
    const check = checkEuVatId(id);
    expect(check.ok).toBe(false);
    expect(check.ok ? "" : check.message).toContain(message);
  });

  test("a number typed without its prefix gets it; another state's prefix is refused", () => {
    expect(checkEuVatId("123456789", "DE")).toEqual({
      ok: true,
      country: "DE",
      vatId: "DE123456789",
    });
    expect(checkEuVatId("FR12345678901", "DE")).toMatchObject({ ok: false });
  });

  test("every member state's example passes its own check", () => {
    expect(Object.keys(EU_VAT_FORMATS)).toHaveLength(27);
    for (const [country, format] of Object.entries(EU_VAT_FORMATS)) {
      expect(checkEuVatId(format.example), format.example).toMatchObject({ ok: true, country });
    }
    expect(isEuCountry("GB")).toBe(false);
    expect(isEuCountry("CH")).toBe(false);
  });

  test("a tax id is stored checked when EU, as typed otherwise; a malformed EU one is a 422", () => {
    expect(decideTaxId("de-123.456.789", null)).toEqual({
      taxId: "DE123456789",
      country: "DE",
      euVat: true,
    });
    expect(decideTaxId("12-3456789", "US")).toEqual({
      taxId: "12-3456789",
      country: "US",
      euVat: false,
    });
    expect(decideTaxId("ABC", null)).toEqual({ taxId: "ABC", country: null, euVat: false });
    expect(() => decideTaxId("DE1234", null)).toThrow(/Not a valid German VAT number/);
    expect(() => decideTaxId("12345", "FR")).toThrow(/Not a valid French VAT number/);
  });
});

describe("which tax treatment an order gets", () => {
  test("a checked VAT id of another member state, delivered to another member state: reverse charge", () => {
    expect(taxTreatment(rates, FR, vat("FR12345678901", "FR"), "DE")).toEqual({
      kind: "reverse_charge",
      name: "VAT reverse charge",
      note: REVERSE_CHARGE_NOTE,
      buyerTaxId: "FR12345678901",
    });
    // A store outside the EU (the demo's US) reverse-charges every EU delivery of such a buyer.
    expect(taxTreatment(rates, DE, vat("DE123456789", "DE"), "US").kind).toBe("reverse_charge");
  });

  test("a company of the seller's own country pays VAT", () => {
    expect(taxTreatment(rates, DE, vat("DE123456789", "DE"), "DE")).toEqual({
      kind: "standard",
      rate: rates[0],
    });
    // Delivered abroad but registered at home: still taxed (no intra-community supply).
    expect(taxTreatment(rates, FR, vat("DE123456789", "DE"), "DE").kind).toBe("standard");
  });

  test("delivered to the seller's country, or outside the EU: the place's rate", () => {
    expect(taxTreatment(rates, DE, vat("FR12345678901", "FR"), "DE")).toEqual({
      kind: "standard",
      rate: rates[0],
    });
    expect(
      taxTreatment(rates, { country: "US", region: "TX" }, vat("FR12345678901", "FR"), "DE"),
    ).toEqual({ kind: "standard", rate: null });
  });

  test("an unchecked or non-EU tax id pays the normal VAT", () => {
    expect(taxTreatment(rates, FR, vat("FR12345678901", "FR", false), "DE").kind).toBe("standard");
    expect(taxTreatment(rates, FR, vat("12-3456789", "US"), "DE").kind).toBe("standard");
    expect(taxTreatment(rates, FR, vat("CHE-123.456.789", "CH"), "DE").kind).toBe("standard");
    expect(taxTreatment(rates, FR, null, "DE")).toEqual({ kind: "standard", rate: rates[1] });
  });

  test("an exemption certificate: 0 % with a note naming it, wherever it goes", () => {
    const exempt = { ...vat("DE123456789", "DE"), exemptionCertificate: "EX-2026-17" };
    for (const place of [DE, FR, null]) {
      expect(taxTreatment(rates, place, exempt, "DE")).toEqual({
        kind: "exempt",
        name: "Tax exempt",
        note: "Tax exempt: exemption certificate EX-2026-17 on file",
        buyerTaxId: "DE123456789",
      });
    }
  });
});

describe("the charges under a 0 % treatment", () => {
  const zones = [
    {
      id: "z",
      name: "EU",
      countries: ["DE", "FR"],
      regions: [],
      methods: [
        {
          id: "m",
          name: "EU Standard",
          estimate: "3 days",
          kind: "flat" as const,
          priceCents: 1999,
          freeOverCents: null,
          bands: [],
        },
      ],
    },
  ];
  const lines = [
    { lineTotalCents: 10_000, weightGrams: 100 },
    { lineTotalCents: 2_345, weightGrams: 100 },
  ];

  test("reverse charge: no tax on lines or shipping, the note and the VAT id kept", () => {
    const c = computeCharges(
      lines,
      { place: FR, zones, rates, buyer: vat("FR12345678901", "FR"), sellerCountry: "DE" },
      null,
      { lenient: false },
    );
    expect(c).toMatchObject({
      shippingCents: 1999,
      lineTax: [0, 0],
      shippingTaxCents: 0,
      taxCents: 0,
      taxName: "VAT reverse charge",
      taxRateMillipercent: 0,
      taxNote: REVERSE_CHARGE_NOTE,
      buyerTaxId: "FR12345678901",
      totalCents: 12_345 + 1999,
    });
  });

  test("the same buyer at home pays 19 % on lines and shipping", () => {
    const c = computeCharges(
      lines,
      { place: DE, zones, rates, buyer: vat("DE123456789", "DE"), sellerCountry: "DE" },
      null,
      { lenient: false },
    );
    expect(c).toMatchObject({
      lineTax: [1900, 446],
      shippingTaxCents: 380,
      taxCents: 1900 + 446 + 380,
      taxName: "DE VAT",
      taxRateMillipercent: 19_000,
      taxNote: null,
      buyerTaxId: null,
    });
  });
});
