import { usePageTitle } from "../../components/page-title";
import { QuickOrder } from "../../features/quick-order/components/quick-order";

export function QuickOrderRoute() {
  usePageTitle("Quick order");
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Quick order</h1>
      <QuickOrder />
    </div>
  );
}
