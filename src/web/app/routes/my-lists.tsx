import { TitledPage } from "../../components/page-title";
import { MyLists } from "../../features/lists/components/my-lists";

export function MyListsRoute() {
  return (
    <TitledPage title="My Lists">
      <MyLists />
    </TitledPage>
  );
}
