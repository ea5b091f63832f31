/**
 * Month names as every page and email writes them: "12 Jan 2027" (dates of money, deadlines and
 * deliveries, `dueDateWords`) and "Jan 12, 2027" (the web's `formatDate`). Written by hand, not
 * with Intl (count.ts says why).
 */
export const MONTHS = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
] as const;

/** A calendar day (`2027-01-12`) as pages and emails say it: "12 Jan 2027" (no time zone moves it). */
export function dayWords(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  return `${date} ${MONTHS[month! - 1]} ${year}`;
}
