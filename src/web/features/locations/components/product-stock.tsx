import { useState } from "react";
import { z } from "zod";
import {
  stockCountSchema,
  stockTransferInputSchema,
  type LocationStock,
  type ProductStock as ProductStockAnswer,
} from "#contract/locations";
import { paths } from "#contract/paths";
import { DataTable, ListTable, type Column } from "../../../components/data-table";
import { RowButton } from "../../../components/edit-remove-buttons";
import { FormDialog, useFormDialog } from "../../../components/form-dialog";
import {
  FormField,
  typedNumber,
  typedNumberOrNull,
  wholeNumber,
} from "../../../components/form-field";
import { Link } from "../../../components/link";
import { QueryError } from "../../../components/query-error";
import { SelectField } from "../../../components/select-field";
import { PageSpinner } from "../../../components/spinner";
import { formatDateTime } from "../../../lib/format";
import { BackorderPolicy } from "./backorder-policy";
import { LocationTitle } from "./location-title";
import { useCountStock, useProductStock, useTransferStock, useTransfers } from "../api/locations";
import { wholeListStates } from "../../../lib/use-list-page";

/** The count's fields as typed: the reorder level empty for none. */
const countFormSchema = z
  .object({ onHand: z.string(), reorderLevel: z.string() })
  .transform((draft, ctx) => {
    const checked = stockCountSchema.safeParse({
      onHand: typedNumber(draft.onHand),
      reorderLevel: typedNumberOrNull(draft.reorderLevel),
    });
    for (const issue of checked.error?.issues ?? []) {
      ctx.addIssue({ code: "custom", path: issue.path.slice(0, 1), message: issue.message });
    }
    return checked.success ? checked.data : z.NEVER;
  });

/**
 * Admin: a product's stock at every location: on sale, allocated to orders, on hand and the
 * reorder level, with a Count (set on hand and the reorder level) and a Transfer between
 * locations; a table on wide screens, cards on phones.
 */
export function ProductStock({ productId }: { productId: string }) {
  const stock = useProductStock(productId);
  const [counting, setCounting] = useState<LocationStock>();
  const [transferring, setTransferring] = useState(false);
  if (stock.isPending) return <PageSpinner />;
  if (stock.error) return <QueryError error={stock.error} />;
  const product = stock.data;
  const columns: Column<LocationStock>[] = [
    {
      header: "Location",
      role: "title",
      cell: (l) => (
        <LocationTitle location={l}>
          {l.low && <span className="badge badge-warning badge-sm">Low</span>}
        </LocationTitle>
      ),
    },
    { header: "On sale", numeric: true, cell: (l) => l.onSale, testId: "on-sale" },
    {
      header: "Allocated to orders",
      numeric: true,
      cell: (l) => l.allocated,
      testId: "allocated",
    },
    { header: "On hand", numeric: true, cell: (l) => l.onHand, testId: "on-hand" },
    {
      header: "Reorder level",
      numeric: true,
      cell: (l) => l.reorderLevel ?? "—",
      testId: "reorder-level",
    },
    {
      header: "Actions",
      role: "actions",
      cell: (l) => (
        <RowButton label={`Count at ${l.code}`} onClick={() => setCounting(l)}>
          Count
        </RowButton>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      <p>
        <span className="font-mono">{product.partNumber}</span> {product.name}:{" "}
        <strong data-testid="total-on-sale">{product.availableQuantity}</strong> on sale in all.
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-primary" onClick={() => setTransferring(true)}>
          Transfer
        </button>
        <Link to={paths.locations} className="btn btn-ghost">
          All locations
        </Link>
      </div>
      <DataTable
        label="Stock by location"
        columns={columns}
        rows={product.locations}
        rowKey={(l) => l.locationId}
        rowTestId="location-stock"
      />
      <p className="text-sm text-base-content/75">
        On hand is what is on the shelves: what is on sale plus what is allocated to orders and not
        shipped yet. A count sets on hand; the difference goes on sale or comes off it.
      </p>
      <BackorderPolicy key={JSON.stringify(product.backorders)} product={product} />
      <Transfers productId={productId} />
      {counting && (
        <CountDialog
          key={counting.locationId}
          productId={productId}
          location={counting}
          onClose={() => setCounting(undefined)}
        />
      )}
      {transferring && <TransferDialog product={product} onClose={() => setTransferring(false)} />}
    </div>
  );
}

function CountDialog({
  productId,
  location,
  onClose,
}: {
  productId: string;
  location: LocationStock;
  onClose(): void;
}) {
  const count = useCountStock();
  const { field, dialog } = useFormDialog(
    countFormSchema,
    {
      onHand: String(location.onHand),
      reorderLevel: location.reorderLevel === null ? "" : String(location.reorderLevel),
    },
    {
      write: (values) =>
        count.mutateAsync({ locationId: location.locationId, productId, count: values }),
      busy: count.isPending,
      said: (_, values) => `Counted ${values.onHand} on hand at ${location.code}`,
      onClose,
    },
  );
  return (
    <FormDialog title={`Count at ${location.code}`} named {...dialog}>
      <FormField
        label="On hand"
        {...wholeNumber(0)}
        hint={
          location.allocated > 0
            ? `${location.allocated} of them are allocated to orders; the rest go on sale`
            : "All of them go on sale"
        }
        {...field("onHand")}
      />
      <FormField
        label="Reorder level"
        {...wholeNumber(0)}
        hint="Low when on sale here is at or below it; empty: none"
        {...field("reorderLevel")}
      />
    </FormDialog>
  );
}

/** A transfer's fields as typed (the product is the page's). */
const transferDraftSchema = z.object({
  fromLocationId: z.string(),
  toLocationId: z.string(),
  qty: z.string(),
});

function TransferDialog({ product, onClose }: { product: ProductStockAnswer; onClose(): void }) {
  const transfer = useTransferStock();
  const home = product.locations.find((l) => l.isHome) ?? product.locations[0];
  const other = product.locations.find((l) => l.locationId !== home?.locationId);
  const schema = transferDraftSchema.transform((draft, ctx) => {
    const checked = stockTransferInputSchema.safeParse({
      productId: product.productId,
      fromLocationId: draft.fromLocationId,
      toLocationId: draft.toLocationId,
      qty: typedNumber(draft.qty),
    });
    for (const issue of checked.error?.issues ?? []) {
      ctx.addIssue({ code: "custom", path: issue.path.slice(0, 1), message: issue.message });
    }
    return checked.success ? checked.data : z.NEVER;
  });
  const codeOf = (id: string) => product.locations.find((l) => l.locationId === id)?.code ?? "";
  const { field, dialog } = useFormDialog(
    schema,
    { fromLocationId: other?.locationId ?? "", toLocationId: home?.locationId ?? "", qty: "" },
    {
      write: (values) => transfer.mutateAsync(values),
      busy: transfer.isPending,
      said: (_, values) =>
        `Moved ${values.qty} from ${codeOf(values.fromLocationId)} to ${codeOf(values.toLocationId)}`,
      onClose,
    },
  );
  const options = product.locations.map((l) => (
    <option key={l.locationId} value={l.locationId}>
      {l.code} · {l.name} ({l.onSale} on sale)
    </option>
  ));
  return (
    <FormDialog title={`Transfer ${product.partNumber}`} named submitLabel="Transfer" {...dialog}>
      <SelectField label="From" {...field("fromLocationId")}>
        {options}
      </SelectField>
      <SelectField label="To" {...field("toLocationId")}>
        {options}
      </SelectField>
      <FormField
        label="Units"
        {...wholeNumber(1)}
        hint="Units on sale move; the product's stock in all stays the same"
        {...field("qty")}
      />
    </FormDialog>
  );
}

/** The product's recent transfers, newest first. */
function Transfers({ productId }: { productId: string }) {
  const transfers = useTransfers(productId);
  return (
    <section className="flex flex-col gap-2" aria-labelledby="recent-transfers">
      <h2 id="recent-transfers" className="text-lg font-semibold">
        Recent transfers
      </h2>
      <ListTable
        {...wholeListStates(transfers)}
        empty="No transfers yet."
        label="Recent transfers"
        rowKey={(t) => t.id}
        columns={[
          { header: "When", role: "title", cell: (t) => formatDateTime(t.createdAt) },
          { header: "From", cell: (t) => t.fromCode },
          { header: "To", cell: (t) => t.toCode },
          { header: "Units", numeric: true, cell: (t) => t.qty },
          { header: "By", cell: (t) => t.adminEmail },
        ]}
      />
    </section>
  );
}
