import { expect, test } from "vitest";
import { backorderHelpers } from "../../../tests/support/backorders";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import type { Cart } from "../../contract/cart";
import { locationMessages } from "../../contract/locations";
import { shippingMessages } from "../../contract/shipping";
import { deliveryEstimate } from "./delivery";

// Delivery estimates in the cart's quote (docs/shipping.md "Delivery estimates"), through the
// API: the admin sets a location's dispatch days and a method's transit days; the quote's
// options say when the parts arrive and from where.

const { t, admin } = storeForTests({
  admin: "dq-admin@example.com",
  env: { AUTH_RATE_LIMIT_PER_IP: "1000" },
});
const h = backorderHelpers(t, () => admin);

/** The quote, and the moments just before and after it was asked (its "now" is between). */
const quote = async (items: { productId: string; qty: number }[]) => {
  const before = new Date();
  const res = await h.as(admin, "POST", "/api/cart/quote", {
    items,
    estimate: { country: "US", postalCode: "60601" },
  });
  const after = new Date();
  expect(res.statusCode, res.body).toBe(200);
  return { ...res.json<Cart>(), asked: [before, after] as const };
};

/** The estimate the quote's moment makes: the one of either end of it (a cut-off may fall between). */
const estimateAt = (
  asked: readonly [Date, Date],
  ...rest: Parameters<typeof deliveryEstimate> extends [Date, ...infer R] ? R : never
) => {
  const [early, late] = asked.map((at) => deliveryEstimate(at, ...rest));
  return expect.toSatisfy((actual: unknown) => {
    try {
      expect(actual).toEqual(early);
      return true;
    } catch {
      expect(actual).toEqual(late);
      return true;
    }
  });
};

test("the admin's dispatch and transit days make each option's window, per origin", async () => {
  const zone = await h.as(admin, "POST", "/api/shipping-zones", {
    name: "United States",
    countries: ["US"],
    methods: [
      { name: "Standard", kind: "flat", price: 5, transitMinDays: 3, transitMaxDays: 5 },
      { name: "Pickup", kind: "flat", price: 0 },
    ],
  });
  expect(zone.statusCode, zone.body).toBe(201);
  expect(zone.json().methods[0]).toMatchObject({ transitMinDays: 3, transitMaxDays: 5 });
  const chicago = await h.as(admin, "POST", "/api/locations", {
    code: "CHI-DQ",
    name: "Chicago warehouse",
    city: "Chicago",
    country: "US",
    servesCountries: ["US"],
    servesRegions: ["IL"],
    dispatchDays: 0,
    cutoffHour: 15,
  });
  expect(chicago.statusCode, chicago.body).toBe(201);
  expect(chicago.json()).toMatchObject({ dispatchDays: 0, cutoffHour: 15 });
  const home = await h.homeLocation();
  const edited = await h.as(admin, "PATCH", `/api/locations/${home}`, { dispatchDays: 2 });
  expect(edited.statusCode, edited.body).toBe(200);
  expect(edited.json()).toMatchObject({ dispatchDays: 2, cutoffHour: null });

  const p = await insertProduct(t.database.db, { availableQuantity: 10, minimumOrder: 1 });
  const moved = await h.as(admin, "POST", "/api/locations/transfers", {
    productId: p.id,
    fromLocationId: home,
    toLocationId: chicago.json().id,
    qty: 4,
  });
  expect(moved.statusCode, moved.body).toBe(201);
  const chicagoOrigin = { name: "Chicago warehouse", dispatchDays: 0, cutoffHour: 15 };
  const transit = { transitMinDays: 3, transitMaxDays: 5 };

  // Four from Chicago (it serves Illinois): one parcel.
  const one = await quote([{ productId: p.id, qty: 4 }]);
  const [standard, pickup] = one.shippingOptions;
  expect(standard!.delivery).toEqual(
    estimateAt(one.asked, [{ ...chicagoOrigin, units: 4 }], [], transit),
  );
  expect(standard!.delivery!.words).toMatch(/^Arrives .+ · ships from Chicago warehouse$/);
  // A method without transit days has no window.
  expect(pickup!.delivery).toBeNull();

  // Six: four from Chicago, two from the home location, each with its own dispatch.
  const split = await quote([{ productId: p.id, qty: 6 }]);
  expect(split.shippingOptions[0]!.delivery).toEqual(
    estimateAt(
      split.asked,
      [
        { ...chicagoOrigin, units: 4 },
        { name: "Main warehouse", dispatchDays: 2, cutoffHour: null, units: 2 },
      ],
      [],
      transit,
    ),
  );
  expect(split.shippingOptions[0]!.delivery!.words).toMatch(
    /^Arrives in 2 parcels: .+ from Chicago warehouse \(4 units\); .+ from Main warehouse \(2 units\)$/,
  );

  // Beyond the shelf of a part that takes no backorders: the line cannot be ordered, no date.
  const refused = await quote([{ productId: p.id, qty: 13 }]);
  expect(refused.shippingOptions[0]!.delivery!.words).not.toContain("backorder");
  // Beyond the shelf, a part that takes backorders: the rest from its promised date.
  await h.takesBackorders(p.id);
  await h.supply(p.id, home, 50, "2027-03-10", "RUN-DQ-1");
  const later = await quote([{ productId: p.id, qty: 13 }]);
  const words = later.shippingOptions[0]!.delivery!.words;
  expect(words).toMatch(/; 3 units on backorder arrive 15–17 Mar 2027$/);
});

test("bad dispatch and transit days are refused with their words", async () => {
  const home = await h.homeLocation();
  const bad = await h.as(admin, "PATCH", `/api/locations/${home}`, {
    dispatchDays: -1,
    cutoffHour: 24,
  });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().fields).toMatchObject({
    dispatchDays: locationMessages.dispatchDays,
    cutoffHour: locationMessages.cutoffHour,
  });
  const half = await h.as(admin, "POST", "/api/shipping-zones", {
    name: "Canada",
    countries: ["CA"],
    methods: [{ name: "Post", kind: "flat", price: 5, transitMinDays: 3 }],
  });
  expect(half.statusCode).toBe(400);
  expect(JSON.stringify(half.json().fields)).toContain(shippingMessages.transitBoth);
  const backwards = await h.as(admin, "POST", "/api/shipping-zones", {
    name: "Canada",
    countries: ["CA"],
    methods: [{ name: "Post", kind: "flat", price: 5, transitMinDays: 5, transitMaxDays: 2 }],
  });
  expect(backwards.statusCode).toBe(400);
  expect(JSON.stringify(backwards.json().fields)).toContain(shippingMessages.transitOrder);
});
