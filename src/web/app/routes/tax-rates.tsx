import { TitledPage } from "../../components/page-title";
import { TaxRates } from "../../features/tax/components/tax-rates";

export function TaxRatesRoute() {
  return (
    <TitledPage title="Tax Rates">
      <TaxRates />
    </TitledPage>
  );
}
