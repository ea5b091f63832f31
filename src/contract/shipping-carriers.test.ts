import { expect, test } from "vitest";
import { orderStatusChangeSchema } from "./orders";
import { trackingMessages, trackingNumberSchema, trackingUrl } from "./shipping-carriers";

test.each([
  ["ups", "1Z999AA10123456784", "https://www.ups.com/track?tracknum=1Z999AA10123456784"],
  ["fedex", "123456789012", "https://www.fedex.com/fedextrack/?trknbr=123456789012"],
  [
    "usps",
    "9400100000000000000000",
    "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000",
  ],
  ["dhl", "JD-0141", "https://www.dhl.com/en/express/tracking.html?AWB=JD-0141"],
] as const)("%s %s is tracked at %s", (carrier, number, url) => {
  expect(trackingUrl(carrier, number)).toBe(url);
});

test("the tracking number is URL-encoded, and there is no link for 'other' or without a number", () => {
  expect(trackingUrl("ups", "A&B=C/D?#")).toBe(
    "https://www.ups.com/track?tracknum=A%26B%3DC%2FD%3F%23",
  );
  expect(trackingUrl("other", "LOCAL-123")).toBeNull();
  expect(trackingUrl(null, null)).toBeNull();
  expect(trackingUrl("ups", null)).toBeNull();
});

test.each([
  [" 1z 999aa1 0123456784 ", "1Z999AA10123456784"],
  ["jd-0141", "JD-0141"],
  ["abc", "ABC"],
  ["A".repeat(40), "A".repeat(40)],
])("tracking number %j is stored as %s", (typed, stored) => {
  expect(trackingNumberSchema.parse(typed)).toBe(stored);
});

test.each(["", "  ", "ab", "A".repeat(41), "1Z/999", "1Z_999", "1Z\u0000999", "ÄÖÜ123", "- -"])(
  "tracking number %j is refused with the clear message",
  (typed) => {
    const parsed = trackingNumberSchema.safeParse(typed);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toContain(trackingMessages.number);
  },
);

test("a status change: shipping with both or neither; cancelling without; unknown carriers refused", () => {
  expect(orderStatusChangeSchema.parse({ status: "shipped" })).toEqual({ status: "shipped" });
  expect(
    orderStatusChangeSchema.parse({ status: "shipped", carrier: "dhl", trackingNumber: "jd 0141" }),
  ).toEqual({ status: "shipped", carrier: "dhl", trackingNumber: "JD0141" });
  const message = (body: unknown) =>
    orderStatusChangeSchema.safeParse(body).error?.issues.map((i) => i.message);
  expect(message({ status: "shipped", carrier: "ups" })).toEqual([trackingMessages.both]);
  expect(message({ status: "shipped", trackingNumber: "1Z999" })).toEqual([trackingMessages.both]);
  expect(message({ status: "shipped", carrier: "royal-mail", trackingNumber: "1Z999" })).toEqual([
    trackingMessages.carrier,
  ]);
  expect(message({ status: "cancelled", carrier: "ups", trackingNumber: "1Z999" })).toEqual([
    trackingMessages.notWhenCancelling,
  ]);
  expect(message({ status: "cancelled", trackingNumber: "1Z999" })).toEqual([
    trackingMessages.notWhenCancelling,
  ]);
});
