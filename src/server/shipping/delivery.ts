import { deliveryWords, type DeliveryEstimate, type DeliveryParcel } from "../../contract/shipping";

/**
 * When an order would arrive (docs/shipping.md "Delivery estimates"), as pure functions: each
 * location that ships some of it dispatches after its working days (counted from the order's
 * day, or from the next working day when the order comes at or after its cut-off hour, UTC, or
 * on a weekend), then the method's transit days (working days, least to most) bring it. Units on
 * backorder leave on their promised date (the next working day when that is a weekend).
 * Working days are Monday to Friday; no public holidays are known.
 */

export interface Origin {
  name: string;
  units: number;
  dispatchDays: number;
  cutoffHour: number | null;
}

export interface Transit {
  transitMinDays?: number | null;
  transitMaxDays?: number | null;
}

const DAY = 86_400_000;
const ymd = (d: Date) => d.toISOString().slice(0, 10);
const atMidnight = (iso: string) => new Date(`${iso}T00:00:00Z`);
const isWorkingDay = (d: Date) => d.getUTCDay() !== 0 && d.getUTCDay() !== 6;

/** The day itself when it is a working day, else the next one. */
function workingDayFrom(d: Date): Date {
  let day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  while (!isWorkingDay(day)) day = new Date(day.getTime() + DAY);
  return day;
}

/** `days` working days after a working day. */
export function addWorkingDays(from: string, days: number): string {
  let day = atMidnight(from);
  for (let left = days; left > 0;) {
    day = new Date(day.getTime() + DAY);
    if (isWorkingDay(day)) left -= 1;
  }
  return ymd(day);
}

/** The working day a location dispatches an order placed at `now`. */
export function dispatchDay(
  now: Date,
  origin: Pick<Origin, "dispatchDays" | "cutoffHour">,
): string {
  const late = origin.cutoffHour !== null && now.getUTCHours() >= origin.cutoffHour;
  // A weekend order or a late one counts from the next working day.
  const first = workingDayFrom(late ? new Date(now.getTime() + DAY) : now);
  return addWorkingDays(ymd(first), origin.dispatchDays);
}

function parcel(from: string | null, units: number, dispatchOn: string, t: Transit) {
  return {
    from,
    units,
    dispatchOn,
    earliest: addWorkingDays(dispatchOn, t.transitMinDays ?? 0),
    latest: addWorkingDays(dispatchOn, t.transitMaxDays ?? 0),
  } satisfies DeliveryParcel;
}

/**
 * The estimate of an order sent by a method: a parcel per origin, one per promised date of the
 * units on backorder, and how many units wait with no date. Null when the method has no transit
 * days, or nothing would ship.
 */
export function deliveryEstimate(
  now: Date,
  origins: readonly Origin[],
  backorders: readonly { units: number; promisedOn: string | null }[],
  transit: Transit,
): DeliveryEstimate | null {
  if (transit.transitMinDays == null || transit.transitMaxDays == null) return null;
  const parcels = origins
    .filter((o) => o.units > 0)
    .map((o) => parcel(o.name, o.units, dispatchDay(now, o), transit));
  const byDate = new Map<string, number>();
  let undated = 0;
  for (const b of backorders) {
    if (b.units <= 0) continue;
    if (b.promisedOn === null) undated += b.units;
    else byDate.set(b.promisedOn, (byDate.get(b.promisedOn) ?? 0) + b.units);
  }
  for (const [on, units] of [...byDate].sort(([a], [b]) => a.localeCompare(b))) {
    parcels.push(parcel(null, units, ymd(workingDayFrom(atMidnight(on))), transit));
  }
  if (parcels.length === 0 && undated === 0) return null;
  return { parcels, undated, words: deliveryWords({ parcels, undated }) };
}
