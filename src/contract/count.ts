// Counts written as people read them, without Intl: its first use loads ICU's locale data (main
// thread in a page, about 6 MiB of a server that has not needed it yet), and messages made as
// modules load would pay that at start (bench/README.md, "Start-up memory").

/** A count with thousands separators, e.g. 1234 -> "1,234" (what toLocaleString("en-US") gives). */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  return `${n < 0 ? "-" : ""}${groupThousands(String(Math.abs(n)))}`;
}

/** A run of digits with a comma before each group of three from the right: "1234" -> "1,234". */
export const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** A weight as the product page says it: "850 g", "1.2 kg" (exact, never rounded). */
export function formatWeight(grams: number): string {
  if (grams < 1000) return `${grams} g`;
  const kg = Math.floor(grams / 1000);
  const rest = String(grams % 1000)
    .padStart(3, "0")
    .replace(/0+$/, "");
  return `${groupThousands(String(kg))}${rest ? `.${rest}` : ""} kg`;
}

/** A product's size as the product page says it: "300 × 200 × 100 mm" (length × width × height). */
export const formatDimensions = (p: { lengthMm: number; widthMm: number; heightMm: number }) =>
  `${[p.lengthMm, p.widthMm, p.heightMm].map((n) => groupThousands(String(n))).join(" × ")} mm`;

/** A count with its noun: "1 item", "2 items" (`many` for an irregular plural: "2 companies"). */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `plural` with the count's thousands separated (`formatCount`): "1 row", "2,000 rows". */
export const pluralCount = (n: number, one: string, many = `${one}s`) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;
