import { TitledPage } from "../../components/page-title";
import { AttributeAdmin } from "../../features/attributes/components/attribute-admin";

/** `/dashboard/attributes` (admins): each category's attributes (docs/attributes.md). */
export function AttributesRoute() {
  return (
    <TitledPage title="Attributes">
      <AttributeAdmin />
    </TitledPage>
  );
}
