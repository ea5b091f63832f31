import { useState } from "react";
import type { PriceList } from "#contract/price-lists";
import { paths } from "#contract/paths";
import { DataTable, ListStates, type Column } from "../../../components/data-table";
import { FormField } from "../../../components/form-field";
import { Link } from "../../../components/link";
import { SearchForm } from "../../../components/search-form";
import { ApiError } from "../../../lib/api-client";
import { formatCount } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import { useCreatePriceList, useDeletePriceList, usePriceLists } from "../api/price-lists";

const PAGE_SIZE = 25;

/** Admin: the price lists (search, paging), a new one, and deleting one no company uses. */
export function PriceListsAdmin() {
  const [params, update] = useUrlParams();
  const q = params.get("q") ?? "";
  const page = pageParam(params, PAGE_SIZE);
  const { data, error, isPending, isPlaceholderData } = usePriceLists({
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    q: q || undefined,
  });
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  useStayWithinPages(page, data && !isPlaceholderData ? pageCount : undefined, update);
  const remove = useDeletePriceList();
  const columns: Column<PriceList>[] = [
    {
      header: "Name",
      role: "title",
      cell: (l) => (
        <Link className="link link-primary" to={paths.priceList.to(l.id)}>
          {l.name}
        </Link>
      ),
    },
    { header: "Currency", cell: (l) => l.currency },
    { header: "Prices", numeric: true, cell: (l) => formatCount(l.entryCount) },
    { header: "Companies", numeric: true, cell: (l) => formatCount(l.companyCount) },
    {
      header: "Actions",
      role: "actions",
      cell: (l) => (
        <button
          type="button"
          className="btn btn-sm btn-outline btn-error"
          disabled={l.companyCount > 0 || remove.isPending}
          title={l.companyCount > 0 ? "Companies use this list" : undefined}
          onClick={() => {
            if (!window.confirm(`Delete the price list ${l.name} and its prices?`)) return;
            remove.mutate(l.id, {
              onSuccess: () => notify.success(`Deleted ${l.name}`),
              onError: (err) => notify.error(err.message),
            });
          }}
        >
          Delete
        </button>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      <NewPriceList />
      <SearchForm
        label="Search price lists"
        placeholder="Name"
        value={q}
        onSearch={(next) => update({ q: next || undefined, page: undefined })}
      />
      <ListStates
        isPending={isPending}
        error={error}
        count={data?.items.length}
        filtered={q !== ""}
        empty="No price lists yet."
        noMatch="No price list has that name."
        summary={data && `${data.total} ${data.total === 1 ? "price list" : "price lists"}`}
        stale={isPlaceholderData}
        page={page}
        pageCount={pageCount}
        onPage={(p) => update({ page: p === 1 ? undefined : String(p) })}
      >
        <DataTable
          label="Price lists"
          columns={columns}
          rows={data?.items ?? []}
          rowKey={(l) => l.id}
          rowTestId="price-list-row"
        />
      </ListStates>
    </div>
  );
}

function NewPriceList() {
  const create = useCreatePriceList();
  const [error, setError] = useState<string>();
  return (
    <form
      className="flex flex-col gap-3 rounded-box border border-base-300 p-4 sm:flex-row sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const name = String(new FormData(form).get("name") ?? "");
        create.mutate(
          { name },
          {
            onSuccess: (list) => {
              setError(undefined);
              form.reset();
              notify.success(`Created ${list.name}`);
            },
            onError: (err) =>
              setError(err instanceof ApiError ? (err.fields?.name ?? err.message) : err.message),
          },
        );
      }}
    >
      <div className="flex-1">
        <FormField label="New price list" name="name" id="new-price-list" error={error} required />
      </div>
      <button type="submit" className="btn btn-primary" disabled={create.isPending}>
        Create price list
      </button>
    </form>
  );
}
