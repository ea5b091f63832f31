import { expect, test } from "vitest";
import { checkDigitOf, checkVin } from "./vin";

test("a valid VIN: the check digit matches, the year and manufacturer are decoded", () => {
  // The textbook example of the North-American check digit: X in position 9.
  expect(checkDigitOf("1M8GDM9AXKP042788")).toBe("X");
  const golf = checkVin("wvwzzzau1gw012345"); // 2016 (G, position 7 a letter), Volkswagen
  expect(golf).toEqual({
    ok: true,
    vin: "WVWZZZAU1GW012345",
    wmi: "WVW",
    manufacturer: "Volkswagen",
    region: "Europe",
    year: 2016,
    notes: [
      "Manufacturer Volkswagen (from WVW)",
      "Model year 2016 (10th character G), or 1986 for an older car: outside North America the 7th character does not tell the 30-year cycle",
      "Region Europe (1st character W)",
    ],
  });
  // Position 7 a digit: the earlier 30-year cycle.
  expect(checkVin("1M8GDM9AXKP042788")).toMatchObject({ ok: true, year: 1989 });
});

test("a VIN of the wrong length is refused with its length", () => {
  expect(checkVin("WVWZZZAU1GW01234")).toEqual({
    ok: false,
    message: "A VIN has 17 characters; this one has 16",
  });
  expect(checkVin("WVWZZZAU1GW0123456")).toMatchObject({ ok: false });
});

test("I, O, Q and other characters are refused by name", () => {
  const r = checkVin("WVWZZZAU1GW0I23O5");
  expect(r).toEqual({
    ok: false,
    message: "A VIN has only digits and the letters A–Z without I, O and Q; this one has I O",
  });
  expect(checkVin("WVWZZZAU1GW01234-")).toMatchObject({ ok: false });
});

test("a wrong check digit of a North-American VIN says what it should be", () => {
  expect(checkVin("1M8GDM9A5KP042788")).toEqual({
    ok: false,
    message: "The check digit (9th character) is 5 but should be X: the VIN is mistyped",
  });
});

test("an unknown WMI and a non-year code are said plainly, never guessed", () => {
  // Check digits worked out by hand for these made-up VINs.
  const unknown = checkVin("9ZZZZZAU" + checkDigitOf("9ZZZZZAU0GW012345") + "GW012345");
  expect(unknown).toMatchObject({ ok: true, manufacturer: null, year: null });
  if (unknown.ok) {
    expect(unknown.notes[0]).toBe("We cannot tell the manufacturer: 9ZZ is not in our table");
  }
  const unknownInNorthAmerica = checkVin(
    "5ZZZZZAU" + checkDigitOf("5ZZZZZAU0GW012345") + "GW012345",
  );
  expect(unknownInNorthAmerica).toMatchObject({ ok: true, manufacturer: null, year: 2016 });
  const noYear = checkVin("WVWZZZAU" + checkDigitOf("WVWZZZAU0UW012345") + "UW012345");
  expect(noYear).toMatchObject({ ok: true, year: null });
  if (noYear.ok) {
    expect(noYear.notes[1]).toBe(
      "We cannot tell the model year: the 10th character U is not a year code",
    );
  }
});

test("a European VIN without a check digit is accepted and says it could not be checked", () => {
  // The VIN: a Z in position 9, as Volkswagen writes it outside North America.
  const golf = checkVin("WVWZZZAUZGW000001");
  expect(golf).toMatchObject({ ok: true, manufacturer: "Volkswagen", year: 2016 });
  // Besides the manufacturer, year and region notes, one says no check digit was checked.
  expect(golf.ok && golf.notes[2]).toBe(
    "The 9th character Z is not checked: outside North America a VIN need not carry a check digit, so a mistyped one cannot be caught",
  );
  expect(golf.ok && golf.notes.length).toBe(4);
});

test("the check digit is required exactly where the WMI is North-American (1 to 5)", () => {
  // A Z in position 9 is never a check digit (those are 0 to 9 and X).
  for (const first of "12345") {
    expect(checkVin(`${first}ZZZZZAUZGW012345`), first).toMatchObject({ ok: false });
  }
  for (const first of "ASJ6W89") {
    expect(checkVin(`${first}ZZZZZAUZGW012345`), first).toMatchObject({ ok: true });
  }
});

test("the region comes from the first character; a first character 0 is no region", () => {
  const regions = Object.fromEntries(
    [..."AHJRSZ156789"].map((first) => {
      const r = checkVin(`${first}ZZZZZAUZGW012345`);
      return [first, r.ok ? r.region : r.message];
    }),
  );
  expect(regions).toEqual({
    A: "Africa",
    H: "Africa",
    J: "Asia",
    R: "Asia",
    S: "Europe",
    Z: "Europe",
    1: expect.stringContaining("mistyped"),
    5: expect.stringContaining("mistyped"),
    6: "Oceania",
    7: "Oceania",
    8: "South America",
    9: "South America",
  });
  const northAmerican = checkVin("1M8GDM9AXKP042788");
  expect(northAmerican).toMatchObject({ ok: true, region: "North America" });
  const zero = checkVin("0ZZZZZAUZGW012345");
  expect(zero).toMatchObject({ ok: true, region: null });
  if (zero.ok) {
    expect(zero.notes.at(-1)).toBe(
      "We cannot tell the region: the 1st character 0 is not a region code",
    );
  }
});

test("the model year only where the standard or the maker puts it in position 10", () => {
  // A European BMW: position 10 is not the year outside North America, so none is claimed.
  const bmw = checkVin("WBA0000000A123456");
  expect(bmw).toMatchObject({ ok: true, manufacturer: "BMW", year: null });
  if (bmw.ok) {
    expect(bmw.notes[1]).toBe(
      "We cannot tell the model year: outside North America the 10th character is the year only for some makers",
    );
  }
  // A European Volkswagen of 2003: position 7 is a filler Z, so the cycle is the latest one not
  // after next year's models, never a year in the future.
  const at = new Date("2026-12-02T00:00:00Z");
  expect(checkVin("WVWZZZ1JZ3W000001", at)).toMatchObject({ ok: true, year: 2003 });
  const golf2003 = checkVin("WVWZZZ1JZ3W000001", at);
  if (golf2003.ok) expect(golf2003.notes[1]).toBe("Model year 2003 (10th character 3)");
  // A 2027 model (code V) is sold from 2026; its earlier cycle, 1997, is named.
  expect(checkVin("WVWZZZ1KZVW000001", at)).toMatchObject({ year: 2027 });
  expect(checkVin("WVWZZZ1KZVW000001", new Date("2025-06-01T00:00:00Z"))).toMatchObject({
    year: 1997,
  });
  // A (1980 or 2010): there was no 17-character VIN in 1980, so 2010 and nothing else.
  const a = checkVin("WVWZZZ1KZAW000001", at);
  if (a.ok) expect(a.notes[1]).toBe("Model year 2010 (10th character A)");
  // North America: position 7 tells the cycle, whatever the date.
  expect(checkVin("1M8GDM9AXKP042788", at)).toMatchObject({ year: 1989 });
});
