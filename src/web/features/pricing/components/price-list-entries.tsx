import { useState } from "react";
import type { PriceListEntry } from "#contract/price-lists";
import { DataTable, ListStates, type Column } from "../../../components/data-table";
import { FormField } from "../../../components/form-field";
import { SearchForm } from "../../../components/search-form";
import { ApiError } from "../../../lib/api-client";
import { formatCount, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import {
  findProductByPartNumber,
  useImportEntries,
  usePriceList,
  usePriceListEntries,
  useRemoveEntry,
  useSetEntry,
} from "../api/price-lists";

const PAGE_SIZE = 50;

/** `10:11.00|50:9.80` → breaks; undefined when it is not written so. */
function parseBreaks(text: string): { minQty: number; unitPrice: number }[] | undefined {
  if (text.trim() === "") return [];
  const out = [];
  for (const part of text.split("|")) {
    const m = /^\s*(\d+)\s*:\s*(\d+(?:\.\d{1,2})?)\s*$/.exec(part);
    if (!m) return undefined;
    out.push({ minQty: Number(m[1]), unitPrice: Number(m[2]) });
  }
  return out;
}

/** Admin: one price list's prices (search, paging), set or remove one, CSV export and import. */
export function PriceListEntries({ listId }: { listId: string }) {
  const list = usePriceList(listId);
  const [params, update] = useUrlParams();
  const q = params.get("q") ?? "";
  const page = pageParam(params, PAGE_SIZE);
  const { data, error, isPending, isPlaceholderData } = usePriceListEntries(listId, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    q: q || undefined,
  });
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  useStayWithinPages(page, data && !isPlaceholderData ? pageCount : undefined, update);
  const remove = useRemoveEntry(listId);
  const currency = list.data?.currency;
  const columns: Column<PriceListEntry>[] = [
    {
      header: "Part",
      role: "title",
      cell: (e) => (
        <span>
          <span className="font-mono font-semibold">{e.partNumber}</span>{" "}
          <span className="text-base-content/75">{e.productName}</span>
        </span>
      ),
    },
    { header: "List price", numeric: true, cell: (e) => formatPrice(e.listPrice, currency) },
    { header: "Unit price", numeric: true, cell: (e) => formatPrice(e.unitPrice, currency) },
    {
      header: "Breaks",
      cell: (e) =>
        e.breaks.length === 0
          ? "none"
          : e.breaks
              .map((b) => `${formatCount(b.minQty)}+ ${formatPrice(b.unitPrice, currency)}`)
              .join(", "),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (e) => (
        <button
          type="button"
          className="btn btn-sm btn-outline btn-error"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(e.productId, {
              onSuccess: () => notify.success(`Removed ${e.partNumber} from the list`),
              onError: (err) => notify.error(err.message),
            })
          }
        >
          Remove
        </button>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      {list.data && (
        <p className="text-sm text-base-content/75">
          {list.data.currency} · {formatCount(list.data.entryCount)} prices · used by{" "}
          {formatCount(list.data.companyCount)} companies
        </p>
      )}
      <EntryForm listId={listId} />
      <CsvTools listId={listId} />
      <SearchForm
        label="Search this list"
        placeholder="Part number or name"
        value={q}
        onSearch={(next) => update({ q: next || undefined, page: undefined })}
      />
      <ListStates
        isPending={isPending}
        error={error}
        count={data?.items.length}
        filtered={q !== ""}
        empty="No prices in this list yet."
        noMatch="No part in this list matches."
        summary={data && `${data.total} ${data.total === 1 ? "price" : "prices"}`}
        stale={isPlaceholderData}
        page={page}
        pageCount={pageCount}
        onPage={(p) => update({ page: p === 1 ? undefined : String(p) })}
      >
        <DataTable
          label="Prices"
          columns={columns}
          rows={data?.items ?? []}
          rowKey={(e) => e.productId}
          rowTestId="price-list-entry"
        />
      </ListStates>
    </div>
  );
}

function EntryForm({ listId }: { listId: string }) {
  const set = useSetEntry(listId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  return (
    <form
      aria-label="Set a price"
      className="grid gap-3 rounded-box border border-base-300 p-4 sm:grid-cols-4 sm:items-end"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const partNumber = String(data.get("partNumber") ?? "").trim();
        const unitPrice = Number(data.get("unitPrice"));
        const breaks = parseBreaks(String(data.get("breaks") ?? ""));
        if (!breaks) {
          setErrors({ breaks: "Write breaks as QTY:PRICE|QTY:PRICE, e.g. 10:11.00|50:9.80" });
          return;
        }
        setBusy(true);
        try {
          const product = await findProductByPartNumber(partNumber);
          if (!product) {
            setErrors({ partNumber: `No product has the part number ${partNumber}` });
            return;
          }
          await set.mutateAsync({ productId: product._id, entry: { unitPrice, breaks } });
          setErrors({});
          form.reset();
          notify.success(`Set the price of ${product.partNumber}`);
        } catch (err) {
          setErrors({
            form:
              err instanceof ApiError
                ? (Object.values(err.fields ?? {})[0] ?? err.message)
                : String(err),
          });
        } finally {
          setBusy(false);
        }
      }}
    >
      <FormField
        label="Part number"
        name="partNumber"
        id="entry-part-number"
        error={errors.partNumber}
        required
      />
      <FormField
        label="Unit price"
        name="unitPrice"
        id="entry-unit-price"
        type="number"
        min="0"
        step="0.01"
        required
      />
      <FormField
        label="Quantity breaks"
        name="breaks"
        id="entry-breaks"
        placeholder="10:11.00|50:9.80"
        error={errors.breaks}
        hint="From QTY units on, PRICE each"
      />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        Set price
      </button>
      {errors.form && (
        <p role="alert" className="text-sm text-error sm:col-span-4">
          {errors.form}
        </p>
      )}
    </form>
  );
}

function CsvTools({ listId }: { listId: string }) {
  const importer = useImportEntries(listId);
  const [problems, setProblems] = useState<string[]>([]);
  return (
    <div className="flex flex-col gap-3 rounded-box border border-base-300 p-4">
      <div className="flex flex-wrap items-end gap-3">
        <a
          className="btn btn-outline"
          href={`/api/price-lists/${encodeURIComponent(listId)}/entries.csv`}
          download
        >
          Export CSV
        </a>
        <form
          className="flex flex-wrap items-end gap-3"
          aria-label="Import prices from CSV"
          onSubmit={async (e) => {
            e.preventDefault();
            const data = new FormData(e.currentTarget);
            const file = data.get("file");
            if (!(file instanceof File) || file.size === 0) {
              setProblems(["Choose a CSV file"]);
              return;
            }
            importer.mutate(
              { csv: await file.text(), replace: data.get("replace") === "on" },
              {
                onSuccess: (r) => {
                  setProblems([]);
                  notify.success(
                    `Imported ${r.imported} prices${r.removed ? `, removed ${r.removed}` : ""}`,
                  );
                },
                onError: (err) =>
                  setProblems(
                    err instanceof ApiError && err.fields
                      ? [err.message, ...Object.entries(err.fields).map(([k, v]) => `${k}: ${v}`)]
                      : [err.message],
                  ),
              },
            );
          }}
        >
          <label className="flex flex-col gap-1 text-sm font-medium">
            CSV file (part_number,unit_price,breaks)
            <input type="file" name="file" accept=".csv,text/csv" className="file-input" />
          </label>
          <label className="label cursor-pointer gap-2 text-sm">
            <input type="checkbox" name="replace" className="checkbox checkbox-sm" />
            Remove prices not in the file
          </label>
          <button type="submit" className="btn" disabled={importer.isPending}>
            Import CSV
          </button>
        </form>
      </div>
      {problems.length > 0 && (
        <ul role="alert" className="list-disc pl-5 text-sm text-error">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
