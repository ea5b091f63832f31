import { useState } from "react";
import { z } from "zod";
import { locationCreateSchema, type Location } from "#contract/locations";
import { paths } from "#contract/paths";
import { ListTable, type Column } from "../../../components/data-table";
import { RowButton } from "../../../components/edit-remove-buttons";
import { FormDialog, useFormDialog } from "../../../components/form-dialog";
import {
  FormField,
  typedNumber,
  typedNumberOrNull,
  wholeNumber,
} from "../../../components/form-field";
import { Link } from "../../../components/link";
import { useLocations, useProductSearch, useSaveLocation } from "../api/locations";
import { AllocationPolicyForm } from "./allocation-policy";
import { LocationTitle } from "./location-title";
import { wholeListStates } from "../../../lib/use-list-page";

/** A location's fields as typed: the lists as "US, CA", the priority as text. */
type LocationDraft = {
  code: string;
  name: string;
  line1: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  servesCountries: string;
  servesRegions: string;
  priority: string;
  active: boolean;
  dispatchDays: string;
  cutoffHour: string;
};

const blankLocation = (): LocationDraft => ({
  code: "",
  name: "",
  line1: "",
  city: "",
  region: "",
  postalCode: "",
  country: "US",
  servesCountries: "",
  servesRegions: "",
  priority: "100",
  active: true,
  dispatchDays: "1",
  cutoffHour: "",
});

const toDraft = (l: Location): LocationDraft => ({
  code: l.code,
  name: l.name,
  line1: l.line1,
  city: l.city,
  region: l.region,
  postalCode: l.postalCode,
  country: l.country,
  servesCountries: l.servesCountries.join(", "),
  servesRegions: l.servesRegions.join(", "),
  priority: String(l.priority),
  active: l.active,
  dispatchDays: String(l.dispatchDays),
  cutoffHour: l.cutoffHour === null ? "" : String(l.cutoffHour),
});

const list = (s: string) =>
  s
    .split(/[,\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** The form's fields, checked with the contract's rules and sent as the request they make. */
const locationFormSchema = z
  .object({
    code: z.string(),
    name: z.string(),
    line1: z.string(),
    city: z.string(),
    region: z.string(),
    postalCode: z.string(),
    country: z.string(),
    servesCountries: z.string(),
    servesRegions: z.string(),
    priority: z.string(),
    active: z.boolean(),
    dispatchDays: z.string(),
    cutoffHour: z.string(),
  })
  .transform((draft, ctx) => {
    const checked = locationCreateSchema.safeParse({
      ...draft,
      servesCountries: list(draft.servesCountries),
      servesRegions: list(draft.servesRegions),
      priority: typedNumber(draft.priority),
      dispatchDays: typedNumber(draft.dispatchDays),
      cutoffHour: typedNumberOrNull(draft.cutoffHour),
    });
    for (const issue of checked.error?.issues ?? []) {
      ctx.addIssue({ code: "custom", path: issue.path.slice(0, 1), message: issue.message });
    }
    return checked.success ? checked.data : z.NEVER;
  });

/** A location's dispatch time as people read it: "Same day by 14:00 UTC", "2 working days". */
const dispatchOf = (l: Location) => {
  const days =
    l.dispatchDays === 0
      ? "Same day"
      : `${l.dispatchDays} working ${l.dispatchDays === 1 ? "day" : "days"}`;
  return l.cutoffHour === null ? days : `${days} · orders by ${l.cutoffHour}:00 UTC`;
};

/** Where a location is and what it serves, as people read it. */
const placeOf = (l: Location) => [l.city, l.country].filter(Boolean).join(", ");
const servesOf = (l: Location) =>
  l.servesCountries.length === 0
    ? "—"
    : `${l.servesCountries.join(", ")}${l.servesRegions.length > 0 ? ` (${l.servesRegions.join(", ")})` : ""}`;

/**
 * Admin: the store's stock locations (the home one first), adding and editing them, and the way
 * to a product's stock at each.
 */
export function LocationsPage() {
  const locations = useLocations();
  const [editing, setEditing] = useState<{ location?: Location }>();
  const columns: Column<Location>[] = [
    {
      header: "Location",
      role: "title",
      cell: (l) => <LocationTitle location={l} />,
    },
    { header: "City / country", cell: placeOf },
    { header: "Serves", cell: servesOf },
    { header: "Priority", numeric: true, cell: (l) => l.priority },
    { header: "Dispatch", cell: dispatchOf },
    {
      header: "Actions",
      role: "actions",
      cell: (l) => (
        <RowButton label={`Edit ${l.code}`} onClick={() => setEditing({ location: l })}>
          Edit
        </RowButton>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-6">
      <button type="button" className="btn btn-primary w-fit" onClick={() => setEditing({})}>
        Add a location
      </button>
      <ListTable
        {...wholeListStates(locations)}
        empty="No locations."
        label="Locations"
        columns={columns}
        rowKey={(l) => l.id}
        rowTestId="location"
      />
      <p className="text-sm text-base-content/75">
        Orders take their units from the locations that serve the destination first, then by
        priority (lower first). The home location keeps whatever stock the others do not.
      </p>
      <AllocationPolicyForm />
      <ChooseProduct />
      {editing && (
        <LocationDialog
          key={editing.location?.id ?? "new"}
          location={editing.location}
          onClose={() => setEditing(undefined)}
        />
      )}
    </div>
  );
}

function LocationDialog({ location, onClose }: { location?: Location; onClose(): void }) {
  const save = useSaveLocation();
  const { register, field, dialog } = useFormDialog(
    locationFormSchema,
    location ? toDraft(location) : blankLocation(),
    {
      write: (values) => save.mutateAsync({ id: location?.id, location: values }),
      busy: save.isPending,
      said: (saved) => (location ? `${saved.code} saved` : `${saved.code} added`),
      onClose,
    },
  );
  return (
    <FormDialog title={location ? `Edit ${location.code}` : "Add a location"} named {...dialog}>
      <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
        <FormField label="Code" placeholder="CHI" maxLength={12} {...field("code")} />
        <FormField label="Name" placeholder="Chicago warehouse" maxLength={80} {...field("name")} />
      </div>
      <FormField label="Address" maxLength={120} {...field("line1")} />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="City" maxLength={80} {...field("city")} />
        <FormField label="Region" placeholder="IL" maxLength={60} {...field("region")} />
        <FormField label="Postal code" maxLength={20} {...field("postalCode")} />
        <FormField label="Country" placeholder="US" maxLength={2} {...field("country")} />
      </div>
      <FormField
        label="Serves countries"
        placeholder="US, CA"
        hint="Two-letter codes, separated by commas; empty: none in particular"
        {...field("servesCountries")}
      />
      <FormField
        label="Serves regions"
        placeholder="IL, WI"
        hint="Only these regions of those countries; empty: the whole of each"
        {...field("servesRegions")}
      />
      <FormField
        label="Priority"
        {...wholeNumber(0)}
        hint="Among locations serving a destination equally, the lower ships first"
        {...field("priority")}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField
          label="Dispatch (working days)"
          {...wholeNumber(0)}
          hint="From an order to its parcel leaving here; 0: the same day"
          {...field("dispatchDays")}
        />
        <FormField
          label="Same-day cut-off hour (UTC, optional)"
          {...wholeNumber(1)}
          placeholder="14"
          hint="Orders from this hour count from the next working day"
          {...field("cutoffHour")}
        />
      </div>
      {!location?.isHome && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="checkbox checkbox-sm" {...register("active")} />
          Active (an inactive location sells nothing and holds no stock)
        </label>
      )}
    </FormDialog>
  );
}

/** Finds a product by name or part number, for its stock by location. */
function ChooseProduct() {
  const [q, setQ] = useState("");
  const found = useProductSearch(q);
  return (
    <section className="flex flex-col gap-2" aria-labelledby="choose-product">
      <h2 id="choose-product" className="text-lg font-semibold">
        Stock by location
      </h2>
      <FormField
        label="Product"
        type="search"
        placeholder="Part number or name"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        name="stock-product"
      />
      {q.trim() !== "" && found.data && (
        <ul className="menu rounded-box bg-base-200" aria-label="Matching products">
          {found.data.length === 0 && <li className="p-2 text-sm">No product matches.</li>}
          {found.data.map((p) => (
            <li key={p._id}>
              <Link to={paths.locationStock.to(p._id)}>
                <span className="font-mono">{p.partNumber}</span> {p.name}
                <span className="text-base-content/75">({p.availableQuantity} on sale)</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A product row's way to its stock by location (Manage All Products adds it). */
export function StockByLocationLink({ productId, name }: { productId: string; name: string }) {
  return (
    <Link
      to={paths.locationStock.to(productId)}
      className="btn btn-sm btn-ghost"
      aria-label={`Stock by location of ${name}`}
    >
      Stock by location
    </Link>
  );
}
