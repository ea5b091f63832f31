import { expect, test } from "vitest";
import { optionalPhoneNumberSchema, phoneNumberSchema } from "./phone";

test.each([
  ["+44 113 496 0000", "+441134960000"],
  ["(0113) 496-0000", "01134960000"],
  ["07700 900123", "07700900123"],
  ["  555.123.4567 ", "5551234567"],
  ["07700900123", "07700900123"],
])("%s is accepted and stored as %s", (typed, stored) => {
  expect(phoneNumberSchema.parse(typed)).toBe(stored);
});

test.each([
  "",
  "   ",
  "call me",
  "12345",
  "+44 113 496 0000 0000 0",
  "44+1134960000",
  "0113\u0000496",
])("%j is refused", (typed) => {
  expect(phoneNumberSchema.safeParse(typed).success).toBe(false);
});

test("the profile's phone may be left empty", () => {
  expect(optionalPhoneNumberSchema.parse("")).toBe("");
  expect(optionalPhoneNumberSchema.parse("+1 (555) 010-0000")).toBe("+15550100000");
  expect(optionalPhoneNumberSchema.safeParse("x").success).toBe(false);
});
