import { plural } from "#contract/count";
import { priceListCreateSchema, type PriceList } from "#contract/pricing";
import { paths } from "#contract/paths";
import { useConfirm } from "../../../components/confirm-dialog";
import { ListTable, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { SearchForm } from "../../../components/search-form";
import { formatCount } from "../../../lib/format";
import { notifyOutcome } from "../../../lib/notify";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useCreatePriceList, useDeletePriceList, usePriceLists } from "../api/price-lists";
import { NewNameForm } from "./new-entry-form";

const PAGE_SIZE = 25;

/** Admin: the price lists (search, paging), a new one, and deleting one no company uses. */
export function PriceListsAdmin() {
  const list = useListPage(PAGE_SIZE);
  const { q } = list;
  const answer = usePriceLists(list.query);
  const states = useListStates(list, answer, (total) => plural(total, "price list"));
  const remove = useDeletePriceList();
  const [confirm, confirmDialog] = useConfirm();
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
          onClick={async () => {
            const question = `Delete the price list ${l.name} and its prices?`;
            if (!(await confirm({ title: question, confirmLabel: "Delete" }))) return;
            remove.mutate(l.id, notifyOutcome(`Deleted ${l.name}`));
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
      <SearchForm label="Search price lists" placeholder="Name" value={q} onSearch={list.search} />
      <ListTable
        {...states}
        filtered={q !== ""}
        empty="No price lists yet."
        noMatch="No price list has that name."
        label="Price lists"
        columns={columns}
        rowKey={(l) => l.id}
        rowTestId="price-list-row"
      />
      {confirmDialog}
    </div>
  );
}

function NewPriceList() {
  const create = useCreatePriceList();
  return (
    <NewNameForm
      schema={priceListCreateSchema}
      defaultValues={{ name: "" }}
      label="New price list"
      id="new-price-list"
      submitLabel="Create price list"
      create={create.mutateAsync}
      busy={create.isPending}
    />
  );
}
