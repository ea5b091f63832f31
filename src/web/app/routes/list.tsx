import { useParams } from "react-router";
import { usePageTitle } from "../../components/page-title";
import { QueryError } from "../../components/query-error";
import { PageSpinner } from "../../components/spinner";
import { useList } from "../../features/lists/api/lists";
import { ListDetail } from "../../features/lists/components/list-detail";

export function ListRoute() {
  const { id = "" } = useParams();
  const list = useList(id);
  usePageTitle(list.data ? `List: ${list.data.name}` : "List");
  if (list.isPending) return <PageSpinner />;
  if (list.error) return <QueryError error={list.error} />;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">{list.data.name}</h1>
      <ListDetail key={list.data.id} list={list.data} />
    </div>
  );
}
