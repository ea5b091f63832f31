import { usePageTitle } from "../../components/page-title";
import { ImportsPage } from "../../features/imports/components/imports-page";

export function ImportsRoute() {
  usePageTitle("Imports");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Imports</h1>
      <ImportsPage />
    </div>
  );
}
