import { plural } from "#contract/count";
import { useState } from "react";
import { z } from "zod";
import {
  parseBreaksText,
  priceBreakMessages,
  priceListEntryInputSchema,
  type PriceListEntry,
} from "#contract/pricing";
import { ListTable, type Column } from "../../../components/data-table";
import { FormError, FormField, moneyAmount } from "../../../components/form-field";
import { SearchForm } from "../../../components/search-form";
import { ApiError } from "../../../lib/api-client";
import { formatCount, formatPrice } from "../../../lib/format";
import { notify, notifyOutcome } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import {
  findProductByPartNumber,
  useImportEntries,
  usePriceList,
  usePriceListEntries,
  useRemoveEntry,
  useSetEntry,
} from "../api/price-lists";

const PAGE_SIZE = 50;

/**
 * The "Set a price" form: a part number (looked up when sent), a unit price, and breaks written
 * `10:11.00|50:9.80`, checked with the price list's rules and said beside the field they concern.
 */
const entryFormSchema = z
  .object({ partNumber: z.string().trim(), unitPrice: z.number().or(z.nan()), breaks: z.string() })
  .transform((v, ctx) => {
    let breaks;
    try {
      breaks = parseBreaksText(v.breaks);
    } catch {
      ctx.addIssue({ code: "custom", path: ["breaks"], message: priceBreakMessages.breaksForm });
      return z.NEVER;
    }
    const entry = priceListEntryInputSchema.safeParse({ unitPrice: v.unitPrice, breaks });
    if (!entry.success) {
      for (const issue of entry.error.issues) {
        const path = issue.path[0] === "unitPrice" ? "unitPrice" : "breaks";
        ctx.addIssue({ code: "custom", path: [path], message: issue.message });
      }
      return z.NEVER;
    }
    return { partNumber: v.partNumber, entry: entry.data };
  });

/** Admin: one price list's prices (search, paging), set or remove one, CSV export and import. */
export function PriceListEntries({ listId }: { listId: string }) {
  const priceList = usePriceList(listId);
  const list = useListPage(PAGE_SIZE);
  const { q } = list;
  const answer = usePriceListEntries(listId, list.query);
  const states = useListStates(list, answer, (total) => plural(total, "price"));
  const remove = useRemoveEntry(listId);
  const currency = priceList.data?.currency;
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
            remove.mutate(e.productId, notifyOutcome(`Removed ${e.partNumber} from the list`))
          }
        >
          Remove
        </button>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      {priceList.data && (
        <p className="text-sm text-base-content/75">
          {priceList.data.currency} · {formatCount(priceList.data.entryCount)} prices · used by{" "}
          {formatCount(priceList.data.companyCount)} companies
        </p>
      )}
      <EntryForm listId={listId} />
      <CsvTools listId={listId} />
      <SearchForm
        label="Search this list"
        placeholder="Part number or name"
        value={q}
        onSearch={list.search}
      />
      <ListTable
        {...states}
        filtered={q !== ""}
        empty="No prices in this list yet."
        noMatch="No part in this list matches."
        label="Prices"
        columns={columns}
        rowKey={(e) => e.productId}
        rowTestId="price-list-entry"
      />
    </div>
  );
}

function EntryForm({ listId }: { listId: string }) {
  const set = useSetEntry(listId);
  const { field, reset, setError, submitWith, formError, formState } = useApiForm(entryFormSchema, {
    defaultValues: { partNumber: "", unitPrice: Number.NaN, breaks: "" },
  });
  return (
    <form
      aria-label="Set a price"
      className="grid gap-3 rounded-box border border-base-300 p-4 sm:grid-cols-4 sm:items-end"
      onSubmit={submitWith(async ({ partNumber, entry }) => {
        const product = await findProductByPartNumber(partNumber);
        if (!product) {
          setError("partNumber", { message: `No product has the part number ${partNumber}` });
          return;
        }
        await set.mutateAsync({ productId: product._id, entry });
        reset();
        notify.success(`Set the price of ${product.partNumber}`);
      })}
    >
      <FormField label="Part number" id="entry-part-number" required {...field("partNumber")} />
      <FormField
        label="Unit price"
        id="entry-unit-price"
        {...moneyAmount(0)}
        required
        {...field("unitPrice", { valueAsNumber: true })}
      />
      <FormField
        label="Quantity breaks"
        id="entry-breaks"
        placeholder="10:11.00|50:9.80"
        hint="From QTY units on, PRICE each"
        {...field("breaks")}
      />
      <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
        Set price
      </button>
      <FormError message={formError} className="text-sm text-error sm:col-span-4" />
    </form>
  );
}

/** The CSV import's fields: a file (required) and whether the file replaces the whole list. */
const importFormSchema = z.object({
  file: z
    .custom<FileList | undefined>()
    .refine((files) => (files?.[0]?.size ?? 0) > 0, "Choose a CSV file"),
  replace: z.boolean(),
});

function CsvTools({ listId }: { listId: string }) {
  const importer = useImportEntries(listId);
  const { register, submitWith, formState } = useApiForm(importFormSchema, {
    defaultValues: { file: undefined, replace: false },
  });
  // A refused file's problems are its lines', listed under the message, not the form's fields.
  const [refusal, setRefusal] = useState<string[]>([]);
  const problems = formState.errors.file?.message ? [formState.errors.file.message] : refusal;
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
          onSubmit={submitWith(async ({ file, replace }) => {
            setRefusal([]);
            try {
              const r = await importer.mutateAsync({ csv: await file!.item(0)!.text(), replace });
              notify.success(
                `Imported ${r.imported} prices${r.removed ? `, removed ${r.removed}` : ""}`,
              );
            } catch (err) {
              setRefusal([
                (err as Error).message,
                ...Object.entries(err instanceof ApiError ? (err.fields ?? {}) : {}).map(
                  ([line, problem]) => `${line}: ${problem}`,
                ),
              ]);
            }
          })}
        >
          <label className="flex flex-col gap-1 text-sm font-medium">
            CSV file (part_number,unit_price,breaks)
            <input
              type="file"
              accept=".csv,text/csv"
              className="file-input"
              {...register("file")}
            />
          </label>
          <label className="label cursor-pointer gap-2 text-sm">
            <input type="checkbox" className="checkbox checkbox-sm" {...register("replace")} />
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
