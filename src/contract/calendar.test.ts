import { expect, test } from "vitest";
import { dayWords } from "./calendar";

test("a calendar day reads day, month, year, whatever the reader's time zone", () => {
  expect(dayWords("2027-01-12")).toBe("12 Jan 2027");
  expect(dayWords("2026-12-31")).toBe("31 Dec 2026");
  expect(dayWords("2028-02-29")).toBe("29 Feb 2028");
});
