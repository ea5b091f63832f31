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
    year: 2016,
    notes: ["Manufacturer Volkswagen (from WVW)", "Model year 2016 (10th character G)"],
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

test("a wrong check digit says what it should be", () => {
  expect(checkVin("WVWZZZAU5GW012345")).toEqual({
    ok: false,
    message: "The check digit (9th character) is 5 but should be 1: the VIN is mistyped",
  });
});

test("an unknown WMI and a non-year code are said plainly, never guessed", () => {
  // Check digits worked out by hand for these made-up VINs.
  const unknown = checkVin("9ZZZZZAU" + checkDigitOf("9ZZZZZAU0GW012345") + "GW012345");
  expect(unknown).toMatchObject({ ok: true, manufacturer: null, year: 2016 });
  if (unknown.ok) {
    expect(unknown.notes[0]).toBe("We cannot tell the manufacturer: 9ZZ is not in our table");
  }
  const noYear = checkVin("WVWZZZAU" + checkDigitOf("WVWZZZAU0UW012345") + "UW012345");
  expect(noYear).toMatchObject({ ok: true, year: null });
  if (noYear.ok) {
    expect(noYear.notes[1]).toBe(
      "We cannot tell the model year: the 10th character U is not a year code",
    );
  }
});
