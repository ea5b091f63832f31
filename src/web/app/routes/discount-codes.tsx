import { TitledPage } from "../../components/page-title";
import { DiscountCodesAdmin } from "../../features/pricing/components/discount-codes-admin";

export function DiscountCodesRoute() {
  return (
    <TitledPage title="Discount codes">
      <DiscountCodesAdmin />
    </TitledPage>
  );
}
