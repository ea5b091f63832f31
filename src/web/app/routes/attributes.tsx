import { usePageTitle } from "../../components/page-title";
import { AttributeAdmin } from "../../features/attributes/components/attribute-admin";

/** `/dashboard/attributes` (admins): each category's attributes (docs/attributes.md). */
export function AttributesRoute() {
  usePageTitle("Attributes");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Attributes</h1>
      <AttributeAdmin />
    </div>
  );
}
