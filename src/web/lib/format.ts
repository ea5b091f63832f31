// The first use of Intl (or toLocale*String) in a page loads ICU's locale data: 40-60 ms of main
// thread on this machine, four times that on a mid-range phone, right inside the render that shows
// the first prices. The public pages therefore format by hand wherever the result is known to be
// exactly Intl's en-US text, or its day, month and year in the store's order
// (format.test.ts compares them), and fall back to Intl otherwise.

import { dateWords } from "../../contract/calendar";
import { formatCount, groupThousands, plural } from "../../contract/count";

export { formatCount };

const handFormatted: Record<string, string> = { USD: "$", EUR: "€", GBP: "£" };
const formatters = new Map<string, Intl.NumberFormat>();

/** Formats an amount in currency units, e.g. 89.9 -> "$89.90". */
export function formatPrice(amount: number, currency = "USD"): string {
  const symbol = handFormatted[currency];
  const digits = symbol === undefined ? undefined : twoDecimals(amount);
  if (symbol !== undefined && digits !== undefined) {
    return `${amount < 0 || Object.is(amount, -0) ? "-" : ""}${symbol}${digits}`;
  }
  let f = formatters.get(currency);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { style: "currency", currency });
    formatters.set(currency, f);
  }
  return f.format(amount);
}

export function formatWarranty(months: number): string {
  if (months === 0) return "No warranty";
  if (months % 12 === 0) return `${months / 12} year${months === 12 ? "" : "s"}`;
  return plural(months, "month");
}

/**
 * A date in the reader's time zone, as the store writes every date (a due date, a delivery window,
 * a calendar day: contract/calendar.ts `dayWords`): "21 Nov 2026".
 */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "Invalid Date";
  return dateWords(d.getDate(), d.getMonth(), d.getFullYear());
}

/** A moment in the reader's time zone, e.g. "21 Nov 2026, 1:03 PM" (where the time matters). */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return formatDate(iso);
  const hours = d.getHours() % 12 || 12;
  const minutes = String(d.getMinutes()).padStart(2, "0");
  return `${formatDate(iso)}, ${hours}:${minutes} ${d.getHours() < 12 ? "AM" : "PM"}`;
}

/**
 * |amount| with two decimals and thousands separators, rounded half away from zero on its
 * shortest decimal form, as ICU rounds; undefined when JavaScript writes it with an exponent.
 */
function twoDecimals(amount: number): string | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(String(Math.abs(amount)));
  if (!match?.[1]) return undefined;
  const fraction = (match[2] ?? "").padEnd(3, "0");
  let cents = Number(fraction.slice(0, 2)) + (fraction[2]! >= "5" ? 1 : 0);
  let whole = match[1];
  if (cents === 100) {
    cents = 0;
    whole = (BigInt(whole) + 1n).toString();
  }
  return `${groupThousands(whole)}.${String(cents).padStart(2, "0")}`;
}

/**
 * How an order is named to a person, everywhere: its number ("PW-100234"), from the order or from
 * an answer that names one (`orderNumber`). Its id stays in URLs and calls, never on screen.
 */
export const formatOrderNumber = (
  order: { _id: string; number: string } | { orderNumber: string },
) => ("_id" in order ? order.number : order.orderNumber);
