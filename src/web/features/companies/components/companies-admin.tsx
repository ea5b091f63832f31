import { plural } from "#contract/count";
import { termsLabels } from "#contract/terms";
import { companyCreateSchema, type Company } from "#contract/companies";
import { paths } from "#contract/paths";
import { ListTable, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { SearchForm } from "../../../components/search-form";
import { formatCount, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useCompanies, useCreateCompany } from "../api/companies";
import { CompanyFormBox, companyFormValues, type CompanyChoices } from "./company-fields";

const PAGE_SIZE = 25;

/** Admin: companies (search, paging) and a new one. */
export function CompaniesAdmin({ priceLists, groups }: CompanyChoices) {
  const list = useListPage(PAGE_SIZE);
  const { q } = list;
  const answer = useCompanies(list.query);
  const states = useListStates(list, answer, (total) => plural(total, "company", "companies"));
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
      <NewCompany priceLists={priceLists} groups={groups} />
      <SearchForm label="Search companies" placeholder="Name" value={q} onSearch={list.search} />
      <ListTable
        {...states}
        filtered={q !== ""}
        empty="No companies yet."
        noMatch="No company has that name."
        label="Companies"
        columns={columns}
        rowKey={(c) => c.id}
        rowTestId="company-row"
      />
    </div>
  );
}

function NewCompany({ priceLists, groups }: CompanyChoices) {
  const create = useCreateCompany();
  const { register, reset, submitWith, formError, formState } = useApiForm(companyCreateSchema, {
    defaultValues: companyFormValues(),
  });
  return (
    <CompanyFormBox
      summary="New company"
      label="New company"
      onSubmit={submitWith(async (input) => {
        const c = await create.mutateAsync(input);
        reset();
        notify.success(`Created ${c.name}`);
      })}
      register={register}
      errors={formState.errors}
      priceLists={priceLists}
      groups={groups}
      idPrefix="new-company"
      error={formError}
      busy={create.isPending}
      submitLabel="Create company"
    />
  );
}
