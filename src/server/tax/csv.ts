import {
  MAX_TAX_CSV_ROWS,
  taxRateCsvColumns,
  taxRateInputSchema,
  type TaxRateInput,
} from "../../contract/tax";
import { parseCsv } from "../csv/csv-file";

/** A tax-rate CSV read: its rates, or every problem with its line (then nothing is written). */
export type TaxCsv = { rates: TaxRateInput[]; errors: [] } | { rates: []; errors: string[] };

const YES = new Set(["", "yes", "true", "1", "y"]);
const NO = new Set(["no", "false", "0", "n"]);

/**
 * Reads a tax-rate CSV (docs/tax.md): a header naming the columns (`country`, `name`, `rate`
 * required; `region`, `postal_code`, `applies_to_shipping` optional), one rate a row, each
 * checked as the form checks it; a place named twice is an error. Pure: nothing is written.
 */
export function readTaxCsv(text: string): TaxCsv {
  const fail = (errors: string[]): TaxCsv => ({ rates: [], errors });
  const parsed = parseCsv(text);
  if ("message" in parsed) return fail([`Line ${parsed.line}: ${parsed.message}`]);
  const [header, ...body] = parsed.records;
  if (!header || body.length === 0)
    return fail(["The file has no rates: a header and a row a rate"]);
  if (body.length > MAX_TAX_CSV_ROWS) {
    return fail([`At most ${MAX_TAX_CSV_ROWS} rates a file; this one has ${body.length}`]);
  }
  const names = header.record.map((h) => h.trim().toLowerCase());
  const known = new Set<string>(taxRateCsvColumns);
  const headerErrors = [
    ...["country", "name", "rate"]
      .filter((c) => !names.includes(c))
      .map((c) => `Line 1: missing column ${c}`),
    ...names.filter((n) => !known.has(n)).map((n) => `Line 1: unknown column ${n}`),
  ];
  if (headerErrors.length > 0) return fail(headerErrors);

  const errors: string[] = [];
  const rates: TaxRateInput[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of body) {
    const cell = (column: string) => record[names.indexOf(column)]?.trim() ?? "";
    const shipping = cell("applies_to_shipping").toLowerCase();
    if (!YES.has(shipping) && !NO.has(shipping)) {
      errors.push(`Line ${info.lines}: applies_to_shipping is yes or no`);
      continue;
    }
    const rate = Number(cell("rate").replace(/\s*%$/, ""));
    const parsed = taxRateInputSchema.safeParse({
      country: cell("country"),
      region: cell("region"),
      postalCode: cell("postal_code"),
      name: cell("name"),
      rate: cell("rate") === "" || Number.isNaN(rate) ? undefined : rate,
      appliesToShipping: !NO.has(shipping),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        errors.push(`Line ${info.lines}: ${String(issue.path[0] ?? "row")}: ${issue.message}`);
      }
      continue;
    }
    const place = `${parsed.data.country}/${parsed.data.region}/${parsed.data.postalCode}`;
    const first = seen.get(place);
    if (first !== undefined) {
      errors.push(`Line ${info.lines}: the same place as line ${first}`);
      continue;
    }
    seen.set(place, info.lines);
    rates.push(parsed.data);
  }
  return errors.length > 0 ? fail(errors) : { rates, errors: [] };
}
