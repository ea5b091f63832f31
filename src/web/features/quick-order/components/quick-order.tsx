import { plural } from "#contract/count";
import { useId, useRef, useState, type FormEvent } from "react";
import { MAX_QUICK_ORDER_LINES, type QuickOrderLine } from "#contract/quick-order";
import { paths } from "#contract/paths";
import { availabilityWords } from "#contract/availability";
import { DataTable, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { Spinner } from "../../../components/spinner";
import { ApiError } from "../../../lib/api-client";
import { formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import {
  useAddQuickOrderToCart,
  useResolveQuickOrder,
  type QuickOrderSource,
} from "../api/quick-order";
import { RowButton } from "../../../components/edit-remove-buttons";

/** A line of the table: what the customer may edit, and what the server said of it. */
interface Row {
  key: string;
  number: string;
  qty: string;
  result: QuickOrderLine;
}

const toRows = (lines: QuickOrderLine[]): Row[] =>
  lines.map((l, i) => ({
    key: `${l.line}-${i}-${l.number}`,
    number: l.number,
    qty: l.qty === null ? "" : String(l.qty),
    result: l,
  }));

const matchText = (m: NonNullable<QuickOrderLine["matched"]>) => {
  switch (m.kind) {
    case "ours":
      return `Our part number ${m.number}`;
    case "OE":
      return `OE number ${m.number} (${m.brand})`;
    case "competitor":
      return `${m.brand} number ${m.number}`;
    case "superseded":
      return `Replaces ${m.number}`;
  }
};

const isReady = (r: Row) => r.result.product !== null && !r.result.problems.some((p) => p.blocking);

const EXAMPLE = "04465-02220 2\nPW-FL-1104;50\nW 712/95\t50";

/**
 * Quick order: paste or upload lines of part number and quantity, see each resolved to our part
 * with its price, stock and problems, fix them in place and add the good ones to the cart.
 */
export function QuickOrder() {
  const [text, setText] = useState("");
  const [rows, setRows] = useState<Row[]>([]);
  const [currency, setCurrency] = useState("USD");
  const [edited, setEdited] = useState(false);
  const resolve = useResolveQuickOrder();
  const add = useAddQuickOrderToCart();
  const fileInput = useRef<HTMLInputElement>(null);
  const textId = useId();
  const fileId = useId();

  const run = (source: QuickOrderSource) => {
    add.reset();
    resolve.mutate(source, {
      onSuccess: (result) => {
        setRows(toRows(result.lines));
        setCurrency(result.currency);
        setEdited(false);
      },
    });
  };

  const linesOf = (list: Row[]) => list.map((r) => ({ number: r.number, qty: r.qty }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() !== "") run({ text });
  };

  const change = (key: string, patch: Partial<Pick<Row, "number" | "qty">>) => {
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setEdited(true);
  };

  const pickNumber = (key: string, number: string) => {
    const next = rows.map((r) => (r.key === key ? { ...r, number } : r));
    setRows(next);
    run({ lines: linesOf(next) });
  };

  const remove = (key: string) => {
    const next = rows.filter((r) => r.key !== key);
    setRows(next);
    if (next.length === 0) setEdited(false);
  };

  const addAll = () =>
    add.mutate(linesOf(rows), {
      onSuccess: (result) => {
        notify.success(`${plural(result.added, "line")} added to your cart`);
        setRows(toRows(result.left));
        setEdited(false);
      },
    });

  const ready = rows.filter(isReady).length;
  const busy = resolve.isPending || add.isPending;
  const error = resolve.error ?? add.error;

  const columns: Column<Row>[] = [
    {
      header: "Part",
      role: "title",
      cell: (r) => {
        const p = r.result.product;
        return (
          <div className="flex flex-col gap-0.5">
            <span className="font-semibold">{p ? p.name : "Not found"}</span>
            {p && (
              <span className="text-xs font-normal text-base-content/75">
                {p.partNumber}
                {r.result.matched && r.result.matched.kind !== "ours"
                  ? ` · ${matchText(r.result.matched)}`
                  : ""}
              </span>
            )}
            {p && p.attributes.length > 0 && (
              <span
                className="text-xs font-normal text-base-content/75"
                data-testid="quick-order-attributes"
              >
                {p.attributes
                  .map((a) => `${a.name} ${a.value}${a.unit ? ` ${a.unit}` : ""}`)
                  .join(" · ")}
              </span>
            )}
            <span className="text-xs font-normal text-base-content/75">Line {r.result.line}</span>
          </div>
        );
      },
    },
    {
      header: "Part number",
      cell: (r) => (
        <input
          className="input input-sm w-40 font-mono"
          value={r.number}
          aria-label={`Part number, line ${r.result.line}`}
          onChange={(e) => change(r.key, { number: e.target.value })}
        />
      ),
    },
    {
      header: "Quantity",
      cell: (r) => (
        <input
          className="input input-sm w-24"
          inputMode="numeric"
          value={r.qty}
          aria-label={`Quantity, line ${r.result.line}`}
          onChange={(e) => change(r.key, { qty: e.target.value })}
        />
      ),
    },
    {
      header: "Price",
      numeric: true,
      cell: (r) =>
        r.result.unitPrice === null ? (
          "—"
        ) : (
          <span>
            {formatPrice(r.result.unitPrice, currency)}
            {r.result.lineTotal !== null && r.result.qty !== null && (
              <span className="block text-xs text-base-content/75">
                {formatPrice(r.result.lineTotal, currency)} in all
              </span>
            )}
          </span>
        ),
    },
    {
      header: "Stock",
      numeric: true,
      cell: (r) =>
        r.result.product ? (
          <span data-testid="quick-order-availability">
            {/* What the buyer can expect (docs/inventory.md "What buyers see"). */}
            {availabilityWords(r.result.product)}
            <span className="block text-xs text-base-content/75">
              minimum {r.result.product.minimumOrder}
            </span>
          </span>
        ) : (
          "—"
        ),
    },
    {
      header: "Problems",
      testId: "quick-order-problems",
      cell: (r) =>
        r.result.problems.length === 0 ? (
          <span className="text-success">Ready</span>
        ) : (
          <ul className="flex flex-col gap-1 max-md:items-end">
            {r.result.problems.map((p) => (
              <li key={p.code} className={p.blocking ? "text-error" : "text-base-content/75"}>
                {p.message}
                {p.qty !== undefined && (
                  <button
                    type="button"
                    className="btn ml-2 btn-outline btn-xs"
                    onClick={() => {
                      const next = rows.map((x) =>
                        x.key === r.key ? { ...x, qty: String(p.qty) } : x,
                      );
                      setRows(next);
                      run({ lines: linesOf(next) });
                    }}
                  >
                    Use {p.qty}
                  </button>
                )}
                {p.suggestions && p.suggestions.length > 0 && (
                  <span className="mt-1 flex flex-wrap gap-1 max-md:justify-end">
                    <span className="text-base-content/75">Did you mean</span>
                    {p.suggestions.map((s) => (
                      <button
                        key={`${s.productId}-${s.number}`}
                        type="button"
                        className="btn btn-outline btn-xs"
                        title={s.name}
                        aria-label={`Use ${s.number} (${s.name}) on line ${r.result.line}`}
                        onClick={() => pickNumber(r.key, s.number)}
                      >
                        {s.number}
                      </button>
                    ))}
                  </span>
                )}
              </li>
            ))}
          </ul>
        ),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (r) => (
        <RowButton
          label={`Remove line ${r.result.line}`}
          tone="ghost"
          onClick={() => remove(r.key)}
        >
          Remove
        </RowButton>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={onSubmit} className="flex flex-col gap-3">
        <label htmlFor={textId} className="font-semibold">
          Part numbers and quantities
        </label>
        <p className="text-sm text-base-content/75">
          One part per line: a part number (ours, the carmaker&apos;s OE number, another
          brand&apos;s or an old number, in any spelling) and a quantity, split by a space, a comma,
          a semicolon or a tab. Up to {MAX_QUICK_ORDER_LINES} lines.
        </p>
        <textarea
          id={textId}
          className="textarea h-40 w-full font-mono"
          placeholder={EXAMPLE}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn btn-primary" disabled={busy || text.trim() === ""}>
            Check lines
          </button>
          <label htmlFor={fileId} className="text-sm">
            or upload a CSV file (part number, quantity):
          </label>
          <input
            ref={fileInput}
            id={fileId}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            className="file-input file-input-sm max-w-full"
            disabled={busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) run({ file });
              e.target.value = "";
            }}
          />
          {busy && <Spinner label="Checking the lines" />}
        </div>
      </form>

      {error && (
        <div role="alert" className="alert alert-error">
          {/* A refused field's own words ("Paste at most …"), not the API's "text: …". */}
          {error instanceof ApiError ? (error.fields?.text ?? error.message) : error.message}
        </div>
      )}

      {rows.length > 0 && (
        <section className="flex flex-col gap-3" aria-label="Resolved lines">
          <p role="status" className="font-semibold">
            {ready} of {plural(rows.length, "line")} ready
            {ready < rows.length ? "; fix the others below, or add the ready ones now" : ""}.
          </p>
          <DataTable
            label="Quick order lines"
            columns={columns}
            rows={rows}
            rowKey={(r) => r.key}
            rowTestId="quick-order-line"
          />
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy || (ready === 0 && !edited)}
              onClick={addAll}
            >
              Add all to cart
            </button>
            <button
              type="button"
              className="btn btn-outline"
              disabled={busy}
              onClick={() => run({ lines: linesOf(rows) })}
            >
              Check again
            </button>
            <Link to={paths.cart} className="btn btn-ghost">
              Go to cart
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
