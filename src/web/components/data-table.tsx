import { Fragment, type ReactNode } from "react";
import { Pagination } from "./pagination";
import { QueryError } from "./query-error";
import { PageSpinner } from "./spinner";

/**
 * One column of a DataTable, declared once for both layouts: a table from the `md` breakpoint up,
 * and below it a card per row (picture and title on top, the other cells as labelled lines, the
 * actions in a row at the bottom, all visible without scrolling sideways).
 */
export interface Column<Row> {
  /** The column's header; in the card view, the label in front of the value. */
  header: string;
  cell: (row: Row) => ReactNode;
  /**
   * Its place in a card: `media` (a picture beside the title), `title` (the row's name: also
   * the table's row header), `field` (a labelled line; the default), `actions` (buttons), or
   * `none` (left out of cards: something the title already says).
   */
  role?: "media" | "title" | "field" | "actions" | "none";
  /** Right-aligned in the table (numbers, money). */
  numeric?: boolean;
  /** Shown in the table only from this breakpoint up (the card view always shows it). */
  from?: "lg" | "2xl";
  testId?: string;
}

interface DataTableProps<Row> {
  /** The table's accessible name, e.g. "Users". */
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  rowTestId?: string;
}

// Below `md` the table's parts become blocks and each row a two-column grid: a card.
const cellClasses: Record<NonNullable<Column<unknown>["role"]>, string> = {
  media: "max-md:row-span-2 max-md:self-start",
  title: "max-md:self-center max-md:text-base",
  field:
    "max-md:col-span-2 max-md:flex max-md:justify-between max-md:gap-4 max-md:before:text-base-content/75 max-md:before:content-[attr(data-label)]",
  actions: "max-md:col-span-2 max-md:pt-2",
  none: "max-md:hidden",
};

// A column left out of narrower tables (the literal class names, for Tailwind to find them).
const fromClasses: Record<NonNullable<Column<unknown>["from"]>, string> = {
  lg: "hidden lg:table-cell",
  "2xl": "hidden 2xl:table-cell",
};
// The same for body cells, which the card view (below `md`) always shows.
const fromCellClasses: Record<NonNullable<Column<unknown>["from"]>, string> = {
  lg: "md:hidden lg:table-cell",
  "2xl": "md:hidden 2xl:table-cell",
};

/** A list of records as a table on wide screens and as cards on phones (see Column). */
export function DataTable<Row>({ label, columns, rows, rowKey, rowTestId }: DataTableProps<Row>) {
  const hasMedia = columns.some((c) => c.role === "media");
  return (
    <div className="rounded-box border border-base-300 bg-base-100 md:overflow-x-auto">
      <table className="table max-md:block" aria-label={label}>
        <thead className="max-md:hidden">
          <tr>
            {columns.map((c) => (
              <th
                key={c.header}
                scope="col"
                className={`text-base-content/80 ${c.numeric ? "text-right" : ""} ${c.from ? fromClasses[c.from] : ""}`}
              >
                {c.role === "media" || c.role === "actions" ? (
                  <span className="sr-only">{c.header}</span>
                ) : (
                  c.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="max-md:block">
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              data-testid={rowTestId}
              className={`max-md:grid max-md:gap-x-3 max-md:gap-y-1 max-md:border-b max-md:border-base-300 max-md:p-4 max-md:last:border-b-0 ${hasMedia ? "max-md:grid-cols-[auto_1fr]" : "max-md:grid-cols-1"}`}
            >
              {columns.map((c) => {
                const role = c.role ?? "field";
                const className = [
                  "max-md:border-0 max-md:p-0 max-md:text-left",
                  cellClasses[role],
                  role === "title" ? "font-medium" : "",
                  // Beside the picture when there is one (two classes for one property would
                  // leave the winner to the stylesheet's order).
                  role === "title" && hasMedia ? "max-md:col-start-2" : "",
                  c.numeric ? "md:text-right" : "",
                  c.from ? fromCellClasses[c.from] : "",
                ].join(" ");
                const content = c.cell(row);
                return role === "title" ? (
                  <th key={c.header} scope="row" className={className} data-testid={c.testId}>
                    {content}
                  </th>
                ) : (
                  <td
                    key={c.header}
                    className={className}
                    data-label={role === "field" ? c.header : undefined}
                    data-testid={c.testId}
                  >
                    {role === "actions" ? (
                      <div className="flex flex-wrap gap-2 md:justify-end">{content}</div>
                    ) : (
                      content
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface ListStatesProps {
  isPending: boolean;
  error: Error | null;
  /** The page's items, once loaded. */
  count: number | undefined;
  /** Whether a search or filter is in effect: then an empty list is "no match", not "none". */
  filtered?: boolean;
  /** Said when there is nothing at all, e.g. "You have no orders yet". */
  empty: ReactNode;
  /** Said when the search or filter finds nothing, e.g. "No orders match your search". */
  noMatch?: ReactNode;
  /** A line above the list, e.g. "12 users matching “ann”". */
  summary?: ReactNode;
  /** Whether the items shown are the previous page's, while the next one loads. */
  stale?: boolean;
  page?: number;
  pageCount?: number;
  onPage?: (page: number) => void;
  children: ReactNode;
}

/** The states every list has, in one place: loading, error, empty or no match, then the list. */
export function ListStates(props: ListStatesProps) {
  const { isPending, error, count, filtered, page, pageCount, onPage } = props;
  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  if (!count) {
    return (
      <p className="rounded-box bg-base-200 p-8 text-center text-base-content/75">
        {filtered ? props.noMatch : props.empty}
      </p>
    );
  }
  return (
    <>
      {props.summary && (
        <p className="text-sm text-base-content/75" aria-live="polite">
          {props.summary}
        </p>
      )}
      <div aria-busy={props.stale} className={props.stale ? "opacity-60" : ""}>
        {props.children}
      </div>
      {page !== undefined && pageCount !== undefined && onPage && (
        <Pagination page={Math.min(page, pageCount)} pageCount={pageCount} onChange={onPage} />
      )}
    </>
  );
}

/**
 * The admin lists' one shape: a list's states (ListStates: loading, error, empty or no match,
 * summary, paging) around its rows as a DataTable. How many the page holds is its rows' count.
 */
export function ListTable<Row>(
  props: Omit<ListStatesProps, "count" | "children"> & DataTableProps<Row>,
) {
  const { label, columns, rows, rowKey, rowTestId, ...states } = props;
  return (
    <ListStates {...states} count={rows.length}>
      <DataTable
        label={label}
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        rowTestId={rowTestId}
      />
    </ListStates>
  );
}

/** An email that wraps after its @ or a dot when it must, never in the middle of a word. */
export function BreakableEmail({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <span className="break-words">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

/** A person in a row: their name above their email (on the right of a card's line on phones). */
export function NameAndEmail({ name, email }: { name: ReactNode; email: string }) {
  return (
    <span className="flex flex-col max-md:items-end">
      {name}
      <BreakableEmail email={email} />
    </span>
  );
}

/**
 * A cell's codes one a line (a key's scopes, an endpoint's events): the column is as wide as the
 * longest code, however many a row holds.
 */
export function CodeLines({ codes }: { codes: readonly string[] }) {
  return (
    <ul className="font-mono text-sm max-md:text-right">
      {codes.map((code) => (
        <li key={code} className="whitespace-nowrap">
          {code}
        </li>
      ))}
    </ul>
  );
}

/** A row's status as a small badge, coloured by `tone` (daisyUI's `badge-success`, …). */
export function StatusBadge({ tone, children }: { tone: string; children: ReactNode }) {
  return <span className={`badge badge-sm whitespace-nowrap ${tone}`}>{children}</span>;
}
