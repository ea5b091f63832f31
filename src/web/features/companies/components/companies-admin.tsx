import { termsLabels } from "#contract/terms";
import { useState } from "react";
import type { Company } from "#contract/companies";
import { paths } from "#contract/paths";
import { DataTable, ListStates, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { SearchForm } from "../../../components/search-form";
import { ApiError } from "../../../lib/api-client";
import { formatCount, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import { useCompanies, useCreateCompany } from "../api/companies";
import { CompanyFields, companyFromForm, type PriceListOption } from "./company-fields";

const PAGE_SIZE = 25;

/** Admin: companies (search, paging) and a new one. */
export function CompaniesAdmin({ priceLists }: { priceLists: PriceListOption[] }) {
  const [params, update] = useUrlParams();
  const q = params.get("q") ?? "";
  const page = pageParam(params, PAGE_SIZE);
  const { data, error, isPending, isPlaceholderData } = useCompanies({
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    q: q || undefined,
  });
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  useStayWithinPages(page, data && !isPlaceholderData ? pageCount : undefined, update);
  const columns: Column<Company>[] = [
    {
      header: "Company",
      role: "title",
      cell: (c) => (
        <Link className="link link-primary" to={paths.company.to(c.id)}>
          {c.name}
        </Link>
      ),
    },
    { header: "Price list", cell: (c) => c.priceListName ?? "none" },
    { header: "Terms", cell: (c) => termsLabels[c.paymentTerms] },
    {
      header: "Credit limit",
      numeric: true,
      from: "lg",
      cell: (c) => (c.creditLimit === null ? "none" : formatPrice(c.creditLimit)),
    },
    { header: "Members", numeric: true, cell: (c) => formatCount(c.memberCount) },
  ];
  return (
    <div className="flex flex-col gap-4">
      <NewCompany priceLists={priceLists} />
      <SearchForm
        label="Search companies"
        placeholder="Name"
        value={q}
        onSearch={(next) => update({ q: next || undefined, page: undefined })}
      />
      <ListStates
        isPending={isPending}
        error={error}
        count={data?.items.length}
        filtered={q !== ""}
        empty="No companies yet."
        noMatch="No company has that name."
        summary={data && `${data.total} ${data.total === 1 ? "company" : "companies"}`}
        stale={isPlaceholderData}
        page={page}
        pageCount={pageCount}
        onPage={(p) => update({ page: p === 1 ? undefined : String(p) })}
      >
        <DataTable
          label="Companies"
          columns={columns}
          rows={data?.items ?? []}
          rowKey={(c) => c.id}
          rowTestId="company-row"
        />
      </ListStates>
    </div>
  );
}

function NewCompany({ priceLists }: { priceLists: PriceListOption[] }) {
  const create = useCreateCompany();
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <details className="rounded-box border border-base-300 p-4">
      <summary className="cursor-pointer font-semibold">New company</summary>
      <form
        aria-label="New company"
        className="mt-4 grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          create.mutate(companyFromForm(new FormData(form)), {
            onSuccess: (c) => {
              setErrors({});
              form.reset();
              notify.success(`Created ${c.name}`);
            },
            onError: (err) =>
              setErrors(
                err instanceof ApiError
                  ? { ...err.fields, form: err.fields ? "" : err.message }
                  : { form: err.message },
              ),
          });
        }}
      >
        <CompanyFields priceLists={priceLists} errors={errors} idPrefix="new-company" />
        {errors.form && (
          <p role="alert" className="text-sm text-error sm:col-span-2">
            {errors.form}
          </p>
        )}
        <button type="submit" className="btn btn-primary sm:col-span-2" disabled={create.isPending}>
          Create company
        </button>
      </form>
    </details>
  );
}
