import { usePageTitle } from "../../components/page-title";
import { TaxRates } from "../../features/tax/components/tax-rates";

export function TaxRatesRoute() {
  usePageTitle("Tax Rates");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Tax Rates</h1>
      <TaxRates />
    </div>
  );
}
