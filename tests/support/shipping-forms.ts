/** Shipping zones as the admin's shipping page sends them (`POST /api/shipping-zones`). */

/** A "United States" zone (the whole country) with these methods, in this order. */
export const usZoneForm = (...methods: object[]) => ({
  name: "United States",
  countries: ["US"],
  methods,
});

/** The "Standard" method: $9.95 in 3-5 business days, free from `freeOver` dollars. */
export const standardFreeOver = (freeOver: number) => ({
  name: "Standard",
  estimate: "3-5 business days",
  kind: "free_over",
  price: 9.95,
  freeOver,
});
