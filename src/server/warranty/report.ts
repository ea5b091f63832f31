import { stringify } from "csv-stringify/sync";
import {
  MAX_REPORT_LOTS,
  REPORT_MAX_AGE_SECONDS,
  perThousand,
  type WarrantyReport,
  type WarrantyReportQuery,
} from "../../contract/warranty-report";
import { keepBounded } from "../bounded-map";
import { escapeCell } from "../csv/csv-file";
import type { DbOrTx } from "../db/database";
import { sql } from "../db/sql";

/** A count with its units, as the query answers it. */
interface Counted {
  sold: number;
  claims: number;
  claimedUnits: number;
}
interface ReportRow {
  parts: (Counted & { productId: string | null; partNumber: string | null; name: string })[];
  codes: { code: string; label: string; claims: number; claimedUnits: number }[];
  months: (Counted & { month: string; costCents: number })[];
  lots: (Counted & { lot: string })[];
  lotCount: number;
}

/** The first instant of a month (`2027-03`), and of the month after it, in UTC. */
const monthStart = (month: string) => new Date(`${month}-01T00:00:00Z`);
const nextMonthStart = (month: string) => {
  const d = monthStart(month);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
};

/**
 * The warranty report (docs/warranty.md "The report"), in one statement: the units sold in the
 * months asked, by part, month and lot, as the shipments module keeps them (`shipped_units`:
 * shipped, less $0 replacements); the claims not rejected of the orders placed in those months;
 * each figure summed from those two small sets.
 */
export async function warrantyReport(
  db: DbOrTx,
  query: Pick<WarrantyReportQuery, "from" | "to">,
  currency: string,
  /** How many lots to list (the CSV: every one). */
  lotLimit: number | null = MAX_REPORT_LOTS,
): Promise<WarrantyReport> {
  const from = query.from ? monthStart(query.from) : null;
  const until = query.to ? nextMonthStart(query.to) : null;
  const placed = sql`o.status in ('paid', 'shipped')
      and (${from}::timestamptz is null or o.created_at >= ${from}::timestamptz)
      and (${until}::timestamptz is null or o.created_at < ${until}::timestamptz)`;
  const inRange = sql`(${from}::date is null or month >= ${from}::date)
    and (${until}::date is null or month < ${until}::date)`;
  const result = await db.execute<{ report: ReportRow }>(sql`
    with claims as (
      select c.id, c.order_id, c.line, c.qty, c.status, c.failure_code, oi.product_id, oi.part_number,
        oi.product_name as name, oi.unit_price_cents,
        date_trunc('month', o.created_at at time zone 'UTC')::date as month
      from warranty_claims c
      join orders o on o.id = c.order_id
      join order_items oi on oi.order_id = c.order_id and oi.line = c.line
      where c.status <> 'rejected' and ${placed}
    ),
    claim_lots as (
      select distinct c.id, c.qty, sl.lot
      from claims c
      join shipment_lines sl on sl.order_id = c.order_id and sl.line = c.line
      where sl.lot is not null
    ),
    -- What sold (summed from the kept units, each set on its own: no wide rows carried) and what
    -- was claimed, side by side, then summed per part and per month.
    parts as (
      select product_id, part_number, max(name) as name, sum(sold)::int as sold,
        sum(claims)::int as claims, sum(units)::int as units
      from (
        select product_id, part_number, max(product_name) as name, sum(qty) as sold, 0 as claims,
          0 as units
        from shipped_units where ${inRange} group by product_id, part_number
        union all
        select product_id, part_number, max(name), 0, count(*), sum(qty)
        from claims group by product_id, part_number
      ) x
      group by product_id, part_number
    ),
    months as (
      select month, sum(sold)::int as sold, sum(claims)::int as claims, sum(units)::int as units,
        sum(cost)::bigint as cost
      from (
        select month, sum(qty) as sold, 0 as claims, 0 as units, 0::bigint as cost
        from shipped_units where ${inRange} group by month
        union all
        select month, 0, count(*), sum(qty),
          sum(case when status = 'approved' then qty::bigint * unit_price_cents else 0 end)
        from claims group by month
      ) x
      group by month
    ),
    -- The lots with claims, most claimed units first (then most per 1,000 sold).
    claimed_lots as (
      select lot, count(*)::int as claims, sum(qty)::int as units from claim_lots group by lot
    ),
    lots as (
      select c.lot, coalesce(s.sold, 0) as sold, c.claims, c.units
      from claimed_lots c
      left join (
        select lot, sum(qty)::int as sold from shipped_units
        where ${inRange} and lot in (select lot from claimed_lots)
        group by lot
      ) s on s.lot = c.lot
    )
    select json_build_object(
      'parts', (select coalesce(json_agg(json_build_object(
          'productId', product_id, 'partNumber', part_number, 'name', name,
          'sold', sold, 'claims', claims, 'claimedUnits', units)), '[]') from parts),
      'codes', (select coalesce(json_agg(json_build_object(
          'code', x.code, 'label', coalesce(f.label, x.code), 'claims', x.claims,
          'claimedUnits', x.units) order by x.claims desc, x.code), '[]')
        from (
          select failure_code as code, count(*)::int as claims, sum(qty)::int as units
          from claims
          where failure_code is not null and status in ('inspected', 'approved')
          group by failure_code
        ) x
        left join warranty_failure_codes f on f.code = x.code),
      'months', (select coalesce(json_agg(json_build_object(
          'month', to_char(month, 'YYYY-MM'), 'sold', sold, 'claims', claims, 'claimedUnits', units,
          'costCents', cost) order by month), '[]') from months),
      'lotCount', (select count(*)::int from lots),
      'lots', (select coalesce(json_agg(json_build_object(
          'lot', lot, 'sold', sold, 'claims', claims, 'claimedUnits', units)), '[]')
        from (
          select * from lots
          order by units desc, units::float / nullif(sold, 0) desc nulls last, lot
          limit ${lotLimit}
        ) top)
    ) as report
  `);
  const row = result.rows[0]!.report;
  const rated = <T extends Counted>(r: T) => ({
    ...r,
    perThousand: perThousand(r.claimedUnits, r.sold),
  });
  // Most claimed per 1,000 first; then most claimed units, then by name, for a stable order.
  const worstFirst = <T extends Counted & { perThousand: number }>(a: T, b: T) =>
    b.perThousand - a.perThousand || b.claimedUnits - a.claimedUnits || b.sold - a.sold;
  const months = row.months.map(({ costCents, ...m }) => ({
    ...rated(m),
    approvedCostCents: Number(costCents),
  }));
  const sum = (key: keyof Counted) => row.months.reduce((n, m) => n + m[key], 0);
  return {
    from: query.from ?? null,
    to: query.to ?? null,
    asOf: new Date().toISOString(),
    currency,
    totals: {
      ...rated({ sold: sum("sold"), claims: sum("claims"), claimedUnits: sum("claimedUnits") }),
      approvedCostCents: months.reduce((n, m) => n + m.approvedCostCents, 0),
    },
    parts: row.parts
      .map(({ name, ...p }) => rated({ ...p, productName: name }))
      .sort((a, b) => worstFirst(a, b) || a.productName.localeCompare(b.productName)),
    failureCodes: row.codes,
    months,
    lots: row.lots.map(rated),
    lotsWithClaims: row.lotCount,
  };
}

type ReportOf = (
  query: Pick<WarrantyReportQuery, "from" | "to">,
  lotLimit?: number | null,
) => Promise<WarrantyReport>;

/**
 * The reports as asked, each kept for REPORT_MAX_AGE_SECONDS (its `asOf` says when it was
 * made): the figures sum every order and claim, and admins asking again (another chart, the
 * CSV of what they see) get them at once. Requests at the same moment share one computation; a
 * failed one is not kept.
 */
export function keptReports(compute: ReportOf, now: () => number = Date.now): ReportOf {
  const kept = new Map<string, { at: number; report: Promise<WarrantyReport> }>();
  return (query, lotLimit) => {
    // The CSV's every lot (null) is another report than the page's first ones (undefined).
    const key = JSON.stringify([
      query.from ?? null,
      query.to ?? null,
      lotLimit ?? String(lotLimit),
    ]);
    const hit = kept.get(key);
    if (hit && now() - hit.at < REPORT_MAX_AGE_SECONDS * 1000) return hit.report;
    const report = compute(query, lotLimit);
    keepBounded(kept, key, { at: now(), report }, 32);
    report.catch(() => kept.delete(key));
    return report;
  };
}

/**
 * The report as one CSV file (UTF-8, `\r\n`): a `section` column (`total`, `part`,
 * `failure code`, `month`, `lot`) naming what each row counts, cells safe from spreadsheets'
 * formulas.
 */
export function warrantyReportCsv(report: WarrantyReport): string {
  const money = (cents: number) => (cents / 100).toFixed(2);
  type Row = Partial<Record<(typeof columns)[number], string | number>>;
  const columns = [
    "section",
    "key",
    "name",
    "sold",
    "claims",
    "claimed_units",
    "per_1000_sold",
    "approved_cost",
  ] as const;
  const rate = (r: Counted & { perThousand: number }) => ({
    sold: r.sold,
    claims: r.claims,
    claimed_units: r.claimedUnits,
    per_1000_sold: r.perThousand.toFixed(1),
  });
  const rows: Row[] = [
    {
      section: "total",
      key: `${report.from ?? "first"}..${report.to ?? "last"}`,
      name: report.currency,
      ...rate(report.totals),
      approved_cost: money(report.totals.approvedCostCents),
    },
    ...report.parts.map((p) => ({
      section: "part",
      key: p.partNumber ?? "",
      name: p.productName,
      ...rate(p),
    })),
    ...report.failureCodes.map((c) => ({
      section: "failure code",
      key: c.code,
      name: c.label,
      claims: c.claims,
      claimed_units: c.claimedUnits,
    })),
    ...report.months.map((m) => ({
      section: "month",
      key: m.month,
      ...rate(m),
      approved_cost: money(m.approvedCostCents),
    })),
    ...report.lots.map((l) => ({ section: "lot", key: l.lot, ...rate(l) })),
  ];
  return stringify(
    rows.map((r) => columns.map((c) => escapeCell(String(r[c] ?? "")))),
    { header: true, columns: [...columns], record_delimiter: "\r\n" },
  );
}
