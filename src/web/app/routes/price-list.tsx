import { useParams } from "react-router";
import { TitledPage } from "../../components/page-title";
import { QueryError } from "../../components/query-error";
import { usePriceList } from "../../features/pricing/api/price-lists";
import { PriceListEntries } from "../../features/pricing/components/price-list-entries";

export function PriceListRoute() {
  const { id = "" } = useParams();
  const list = usePriceList(id);
  return (
    <TitledPage title={list.data?.name ?? "Price list"}>
      {list.error ? <QueryError error={list.error} /> : <PriceListEntries listId={id} />}
    </TitledPage>
  );
}
