import { expect, test } from "vitest";
import { POSTAL_PATTERN_MESSAGE, parsePostalPattern } from "../../contract/tax";
import { readTaxCsv } from "./csv";

test("postal patterns: a code, a prefix, a range of one length; anything else is refused", () => {
  expect(parsePostalPattern("10001")).toEqual({ kind: "exact", code: "10001" });
  expect(parsePostalPattern("10001-1234")).toEqual({ kind: "exact", code: "10001-1234" });
  expect(parsePostalPattern("100*")).toEqual({ kind: "prefix", prefix: "100" });
  expect(parsePostalPattern("10001-10282")).toEqual({ kind: "range", from: "10001", to: "10282" });
  expect(parsePostalPattern("sw1a 1aa")).toEqual({ kind: "exact", code: "SW1A1AA" });
  for (const bad of ["*", "10282-10001", "1*0", "10001,10002", "ab/cd"]) {
    expect(parsePostalPattern(bad), bad).toBeNull();
  }
});

test("a CSV's rates are read as the form reads them", () => {
  const read = readTaxCsv(
    "\uFEFFcountry,region,postal_code,name,rate,applies_to_shipping\r\n" +
      "us,ny,10001-10282,New York City sales tax,8.875,yes\r\n" +
      "US,NY,,New York sales tax,4 %,\r\n" +
      "DE,,,VAT,19,no\r\n",
  );
  expect(read.errors).toEqual([]);
  expect(read.rates).toEqual([
    {
      country: "US",
      region: "NY",
      postalCode: "10001-10282",
      name: "New York City sales tax",
      rate: 8.875,
      appliesToShipping: true,
    },
    {
      country: "US",
      region: "NY",
      postalCode: "",
      name: "New York sales tax",
      rate: 4,
      appliesToShipping: true,
    },
    { country: "DE", region: "", postalCode: "", name: "VAT", rate: 19, appliesToShipping: false },
  ]);
});

test("every bad row is named by its line, and nothing is read from a file with one", () => {
  const read = readTaxCsv(
    "country,postal_code,name,rate,applies_to_shipping\n" +
      "US,10001,NYC,8.875,yes\n" +
      "XX,,Nowhere,5,yes\n" +
      "US,10282-10001,Backwards,5,yes\n" +
      "US,,Too much,101,yes\n" +
      "US,,No rate,,yes\n" +
      "US,10001,Again,9,yes\n" +
      "US,,Maybe,5,perhaps\n",
  );
  expect(read.rates).toEqual([]);
  expect(read.errors).toEqual([
    "Line 3: country: Use a two-letter country code, like US or DE",
    `Line 4: postalCode: ${POSTAL_PATTERN_MESSAGE}`,
    "Line 5: rate: A rate is at most 100 %",
    "Line 6: rate: Enter a rate in percent",
    "Line 7: the same place as line 2",
    "Line 8: applies_to_shipping is yes or no",
  ]);
});

test("a file without the required columns, or without rows, says so", () => {
  expect(readTaxCsv("country,name\nUS,x\n").errors).toEqual(["Line 1: missing column rate"]);
  expect(readTaxCsv("country,name,rate,colour\nUS,x,1,red\n").errors).toEqual([
    "Line 1: unknown column colour",
  ]);
  expect(readTaxCsv("country,name,rate\n").errors).toEqual([
    "The file has no rates: a header and a row a rate",
  ]);
  expect(readTaxCsv('country,name,rate\n"US,x,1\n').errors[0]).toMatch(/^Line \d+: /);
});
