import { useParams } from "react-router";
import { usePageTitle } from "../../components/page-title";
import { QueryError } from "../../components/query-error";
import { usePriceList } from "../../features/pricing/api/price-lists";
import { PriceListEntries } from "../../features/pricing/components/price-list-entries";

export function PriceListRoute() {
  const { id = "" } = useParams();
  const list = usePriceList(id);
  usePageTitle(list.data?.name ?? "Price list");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">{list.data?.name ?? "Price list"}</h1>
      {list.error ? <QueryError error={list.error} /> : <PriceListEntries listId={id} />}
    </div>
  );
}
