import { useQuery } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import {
  REPORT_MAX_AGE_SECONDS,
  WARRANTY_REPORT_CSV_PATH,
  warrantyReportQuerySchema,
  type WarrantyReport as Report,
} from "#contract/warranty-report";
import { DataTable, type Column } from "../../../components/data-table";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { apiGet, toQueryString } from "../../../lib/api-client";
import { formatCount, formatDateTime, formatPrice } from "../../../lib/format";

// The warranty report (docs/warranty.md "The report"): each figure drawn as a chart (Recharts)
// and listed in a table beside it, for screen readers and for reading exact numbers; the same
// figures as one CSV file.

/** At most this many bars in a chart (worst first); the table lists every row. */
const MAX_BARS = 12;
const rate = (n: number) =>
  n.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

const useWarrantyReport = (query: { from?: string; to?: string }) =>
  useQuery({
    queryKey: ["orders", "warranty", "report", query],
    queryFn: () => apiGet<Report>(`/warranty/report${toQueryString(query)}`),
  });

type Part = Report["parts"][number];
type Code = Report["failureCodes"][number];
type Month = Report["months"][number];
type Lot = Report["lots"][number];

const rateColumns = <Row extends { sold: number; claimedUnits: number; perThousand: number }>(
  title: Column<Row>,
): Column<Row>[] => [
  title,
  { header: "Sold", numeric: true, cell: (r) => formatCount(r.sold) },
  { header: "Claimed", numeric: true, cell: (r) => formatCount(r.claimedUnits) },
  { header: "Per 1,000 sold", numeric: true, cell: (r) => rate(r.perThousand) },
];

/** Admin: the warranty report for the months of sale chosen, with its CSV. */
export function WarrantyReport() {
  const [range, setRange] = useState<{ from?: string; to?: string }>({});
  const checked = warrantyReportQuerySchema.safeParse(range);
  const query = checked.success ? { from: checked.data.from, to: checked.data.to } : {};
  const report = useWarrantyReport(query);
  const id = useId();
  const month = (key: "from" | "to", label: string) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${key}`} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        type="month"
        className="input input-bordered w-44"
        value={range[key] ?? ""}
        onChange={(e) => setRange({ ...range, [key]: e.target.value || undefined })}
      />
    </div>
  );
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end gap-3">
        {month("from", "Sold from (month)")}
        {month("to", "Sold until (month)")}
        <a
          className="btn btn-outline"
          href={`${WARRANTY_REPORT_CSV_PATH}${toQueryString(query)}`}
          download
        >
          Download CSV
        </a>
      </div>
      {!checked.success && (
        <p className="text-sm text-error" role="alert">
          {checked.error.issues[0]?.message}
        </p>
      )}
      {report.isPending ? (
        <PageSpinner />
      ) : report.error ? (
        <QueryError error={report.error} />
      ) : (
        <Figures report={report.data} />
      )}
    </div>
  );
}

function Figures({ report }: { report: Report }) {
  const { totals } = report;
  const money = (cents: number) => formatPrice(cents / 100, report.currency);
  return (
    <>
      <p className="text-sm text-base-content/75">
        Figures as of {formatDateTime(report.asOf)}; asked again, they are summed again after{" "}
        {REPORT_MAX_AGE_SECONDS} seconds.
      </p>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="report-totals">
        <Total label="Units sold" value={formatCount(totals.sold)} />
        <Total
          label="Claims"
          value={`${formatCount(totals.claims)} (${formatCount(totals.claimedUnits)} ${totals.claimedUnits === 1 ? "unit" : "units"})`}
        />
        <Total label="Claimed per 1,000 sold" value={rate(totals.perThousand)} />
        <Total label="Approved claims' cost" value={money(totals.approvedCostCents)} />
      </dl>
      <Figure
        title="Claims per 1,000 sold, per part"
        chart={
          <BarChart data={report.parts.slice(0, MAX_BARS)} layout="vertical" margin={{ left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" />
            <YAxis
              type="category"
              dataKey={(p: Part) => p.partNumber ?? p.productName}
              width={112}
            />
            <Tooltip />
            <Bar
              maxBarSize={48}
              dataKey="perThousand"
              name="Per 1,000 sold"
              fill="var(--color-primary)"
            />
          </BarChart>
        }
        height={Math.max(160, 28 * Math.min(report.parts.length, MAX_BARS) + 40)}
        empty={report.parts.length === 0}
      >
        <DataTable
          label="Claims per 1,000 sold, per part"
          rows={report.parts}
          rowKey={(p) => `${p.productId}:${p.partNumber}`}
          columns={rateColumns<Part>({
            header: "Part",
            role: "title",
            cell: (p) => (
              <>
                {p.productName}
                {p.partNumber && <span className="block font-mono text-xs">{p.partNumber}</span>}
              </>
            ),
          })}
        />
      </Figure>
      <Figure
        title="Claims by failure code"
        note="Inspected and approved claims."
        chart={
          <Columns
            data={report.failureCodes}
            x="code"
            y="claims"
            name="Claims"
            fill="var(--color-secondary)"
            whole
          />
        }
        empty={report.failureCodes.length === 0}
      >
        <DataTable
          label="Claims by failure code"
          rows={report.failureCodes}
          rowKey={(c) => c.code}
          columns={
            [
              {
                header: "Failure code",
                role: "title",
                cell: (c) => (
                  <>
                    <span className="font-mono">{c.code}</span> · {c.label}
                  </>
                ),
              },
              { header: "Claims", numeric: true, cell: (c) => formatCount(c.claims) },
              { header: "Units", numeric: true, cell: (c) => formatCount(c.claimedUnits) },
            ] satisfies Column<Code>[]
          }
        />
      </Figure>
      <Figure
        title="Claims per 1,000 sold, by month of sale"
        chart={
          <LineChart data={report.months}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="month" />
            <YAxis />
            <Tooltip />
            <Line
              type="monotone"
              dataKey="perThousand"
              name="Per 1,000 sold"
              stroke="var(--color-primary)"
            />
          </LineChart>
        }
        empty={report.months.length === 0}
      >
        <DataTable
          label="Claims per 1,000 sold, by month of sale"
          rows={report.months}
          rowKey={(m) => m.month}
          columns={[
            ...rateColumns<Month>({ header: "Month of sale", role: "title", cell: (m) => m.month }),
            {
              header: "Approved claims' cost",
              numeric: true,
              cell: (m) => money(m.approvedCostCents),
            },
          ]}
        />
      </Figure>
      <Figure
        title="Approved claims' cost, by month of sale"
        chart={
          <Columns
            data={report.months.map((m) => ({ ...m, cost: m.approvedCostCents / 100 }))}
            x="month"
            y="cost"
            name={`Cost (${report.currency})`}
            fill="var(--color-accent)"
          />
        }
        empty={totals.approvedCostCents === 0}
      />
      <Figure
        title="Claims per 1,000 sold, by production lot"
        note={`The lots with claims (${report.lots.length < report.lotsWithClaims ? `the ${report.lots.length} most claimed of ${formatCount(report.lotsWithClaims)}; the CSV lists every one` : "all of them"}); a claim counts for each lot its line shipped in.`}
        chart={
          <Columns
            data={report.lots.slice(0, MAX_BARS)}
            x="lot"
            y="perThousand"
            name="Per 1,000 sold"
            fill="var(--color-primary)"
          />
        }
        empty={report.lots.length === 0}
      >
        <DataTable
          label="Claims per 1,000 sold, by production lot"
          rows={report.lots}
          rowKey={(l) => l.lot}
          columns={rateColumns<Lot>({
            header: "Lot",
            role: "title",
            cell: (l) => <span className="font-mono">{l.lot}</span>,
          })}
        />
      </Figure>
    </>
  );
}

/** A column chart of `data`: one bar of `y` per `x`, on a grid with its axes and a tooltip. */
function Columns({
  data,
  x,
  y,
  name,
  fill,
  whole = false,
}: {
  data: object[];
  x: string;
  y: string;
  name: string;
  fill: string;
  /** Whole numbers only on the axis (counts). */
  whole?: boolean;
}) {
  return (
    <BarChart data={data}>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey={x} />
      <YAxis allowDecimals={!whole} />
      <Tooltip />
      <Bar maxBarSize={48} dataKey={y} name={name} fill={fill} />
    </BarChart>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-box border border-base-300 p-3">
      <dt className="text-xs text-base-content/75">{label}</dt>
      <dd className="text-lg font-semibold">{value}</dd>
    </div>
  );
}

/** One figure: its heading, its chart (hidden from screen readers: the table says it), its table. */
function Figure({
  title,
  note,
  chart,
  height = 240,
  empty,
  children,
}: {
  title: string;
  note?: string;
  chart: ReactNode;
  height?: number;
  empty: boolean;
  children?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-2">
      <h3 id={headingId} className="font-semibold">
        {title}
      </h3>
      {note && <p className="text-sm text-base-content/75">{note}</p>}
      {empty ? (
        <p className="rounded-box bg-base-200 p-4 text-sm text-base-content/75">Nothing yet.</p>
      ) : (
        <>
          <div aria-hidden="true" className="w-full" style={{ height }}>
            <ResponsiveContainer width="100%" height="100%">
              {chart}
            </ResponsiveContainer>
          </div>
          {children}
        </>
      )}
    </section>
  );
}
