import { describe, expect, test } from "vitest";
import { dayRangeWords, deliveryWords } from "../../contract/shipping";
import { addWorkingDays, deliveryEstimate, dispatchDay } from "./delivery";

// Delivery estimates (docs/shipping.md "Delivery estimates"), the pure rules. 2026-12-04 is a
// Friday.

const friday = (hour: number) => new Date(Date.UTC(2026, 11, 4, hour, 30));

describe("working days", () => {
  test("skip the weekend", () => {
    expect(addWorkingDays("2026-12-04", 0)).toBe("2026-12-04");
    expect(addWorkingDays("2026-12-04", 1)).toBe("2026-12-07");
    expect(addWorkingDays("2026-12-02", 5)).toBe("2026-12-09");
  });

  test("dispatch counts from the order's day, or the next working day after the cut-off or on a weekend", () => {
    expect(dispatchDay(friday(10), { dispatchDays: 0, cutoffHour: 14 })).toBe("2026-12-04");
    expect(dispatchDay(friday(14), { dispatchDays: 0, cutoffHour: 14 })).toBe("2026-12-07");
    expect(dispatchDay(friday(23), { dispatchDays: 0, cutoffHour: null })).toBe("2026-12-04");
    expect(dispatchDay(friday(10), { dispatchDays: 2, cutoffHour: null })).toBe("2026-12-08");
    const saturday = new Date(Date.UTC(2026, 11, 5, 9));
    expect(dispatchDay(saturday, { dispatchDays: 0, cutoffHour: 14 })).toBe("2026-12-07");
    expect(dispatchDay(saturday, { dispatchDays: 1, cutoffHour: null })).toBe("2026-12-08");
  });
});

describe("the estimate", () => {
  const chicago = { name: "Chicago warehouse", units: 3, dispatchDays: 1, cutoffHour: null };
  const main = { name: "Main warehouse", units: 2, dispatchDays: 3, cutoffHour: null };
  const transit = { transitMinDays: 2, transitMaxDays: 4 };

  test("one origin: its dispatch, then the method's transit", () => {
    const e = deliveryEstimate(friday(10), [chicago], [], transit)!;
    expect(e.parcels).toEqual([
      {
        from: "Chicago warehouse",
        units: 3,
        dispatchOn: "2026-12-07",
        earliest: "2026-12-09",
        latest: "2026-12-11",
      },
    ]);
    expect(e.words).toBe("Arrives 9–11 Dec 2026 · ships from Chicago warehouse");
  });

  test("split shipments are said per origin, backorders from their promised date", () => {
    const e = deliveryEstimate(
      friday(10),
      [chicago, main],
      [
        { units: 4, promisedOn: "2027-01-09" },
        { units: 1, promisedOn: null },
      ],
      transit,
    )!;
    expect(e.parcels.map((p) => [p.from, p.dispatchOn, p.earliest, p.latest])).toEqual([
      ["Chicago warehouse", "2026-12-07", "2026-12-09", "2026-12-11"],
      ["Main warehouse", "2026-12-09", "2026-12-11", "2026-12-15"],
      // A Saturday's promise leaves on the Monday.
      [null, "2027-01-11", "2027-01-13", "2027-01-15"],
    ]);
    expect(e.undated).toBe(1);
    expect(e.words).toBe(
      "Arrives in 2 parcels: 9–11 Dec 2026 from Chicago warehouse (3 units); 11–15 Dec 2026 from Main warehouse (2 units); 4 units on backorder arrive 13–15 Jan 2027; 1 unit on backorder: date to be confirmed",
    );
  });

  test("a method without transit days, or nothing to ship, has no estimate", () => {
    const none = { transitMinDays: null, transitMaxDays: null };
    expect(deliveryEstimate(friday(10), [chicago], [], none)).toBeNull();
    expect(deliveryEstimate(friday(10), [], [], transit)).toBeNull();
    expect(deliveryWords({ parcels: [], undated: 2 })).toBe(
      "2 units on backorder: date to be confirmed",
    );
  });

  test("windows across a month or a year", () => {
    expect(dayRangeWords("2026-12-09", "2026-12-09")).toBe("9 Dec 2026");
    expect(dayRangeWords("2026-11-30", "2026-12-02")).toBe("30 Nov – 2 Dec 2026");
    expect(dayRangeWords("2026-12-30", "2027-01-04")).toBe("30 Dec 2026 – 4 Jan 2027");
  });
});
