/**
 * Month names as every page and email writes dates: "12 Jan 2027" (dates of money, deadlines and
 * deliveries, `dueDateWords`; a calendar day, `dayWords`; the web's `formatDate`, in the reader's
 * time zone). One style store-wide. Written by hand, not with Intl (count.ts says why).
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

/** A day written as the store writes every date: "12 Jan 2027" (`month` from 0, January). */
export const dateWords = (date: number, month: number, year: number) =>
  `${date} ${MONTHS[month]} ${year}`;

/** A calendar day (`2027-01-12`) as pages and emails say it: "12 Jan 2027" (no time zone moves it). */
export function dayWords(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  return dateWords(date!, month! - 1, year!);
}
