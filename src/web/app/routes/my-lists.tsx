import { usePageTitle } from "../../components/page-title";
import { MyLists } from "../../features/lists/components/my-lists";

export function MyListsRoute() {
  usePageTitle("My Lists");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">My Lists</h1>
      <MyLists />
    </div>
  );
}
