import { backorderMessages } from "#contract/backorders";
import { z } from "zod";
import {
  PARTIALLY_SHIPPED_LABEL,
  shipmentCreateSchema,
  type OrderShipments as OrderShipmentsData,
  type Shipment,
} from "#contract/shipments";
import { shippingCarriers } from "#contract/shipping-carriers";
import { useState } from "react";
import { carrierName, CarrierOptions, TrackingNumber } from "../../../components/carriers";
import { ActionDialog } from "../../../components/confirm-dialog";
import { RowButton } from "../../../components/edit-remove-buttons";
import { FormError, FormField } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { formatDate, formatPrice } from "../../../lib/format";
import { chosenLines, lineQuantitiesSchema, quantityField } from "../../../lib/line-quantities";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useCancelBackorder, useShipLines } from "../api/shipments";

/** An order the buyer wants in one go, as its page says it. */
export const SHIPS_COMPLETE_NOTE =
  "Ships complete: everything goes together once the backordered parts have arrived.";

/**
 * The order page's shipments (docs/shipments.md): each parcel with its lines and tracking
 * link, the lines still to ship, and for an admin "Ship selected" with per-line quantities.
 */
export function OrderShipments({ data, isAdmin }: { data: OrderShipmentsData; isAdmin: boolean }) {
  const toShip = data.lines.filter((l) => l.toShip > 0);
  const waiting = data.lines.filter((l) => (l.backorder?.waiting ?? 0) > 0);
  const canShip =
    isAdmin &&
    data.status === "paid" &&
    toShip.length > 0 &&
    !(data.shipComplete && waiting.length);
  // Units cancelled while on backorder (an order cancelled whole says so itself).
  const cancelled =
    data.status === "cancelled" ? [] : data.lines.filter((l) => (l.backorder?.cancelled ?? 0) > 0);
  if (data.shipments.length === 0 && !canShip && waiting.length === 0 && cancelled.length === 0) {
    return null;
  }
  return (
    <section aria-labelledby="shipments-heading" className="flex flex-col gap-3">
      <h2 id="shipments-heading" className="text-lg font-bold">
        Shipments
        {data.partiallyShipped && (
          <span className="badge badge-info ml-2 align-middle" data-testid="partially-shipped">
            {PARTIALLY_SHIPPED_LABEL}
          </span>
        )}
      </h2>
      {data.shipments.length > 0 && (
        <ol className="flex flex-col gap-2">
          {data.shipments.map((s, i) => (
            <ShipmentItem key={s.id} s={s} n={i + 1} />
          ))}
        </ol>
      )}
      {data.shipments.length > 0 && toShip.length > 0 && data.status === "paid" && (
        <div data-testid="still-to-ship">
          <h3 className="font-semibold">Still to ship</h3>
          <ul className="text-sm">
            {toShip.map((l) => (
              <li key={l.line}>
                {l.toShip} × {l.productName}
                {l.partNumber && <span className="text-base-content/75"> ({l.partNumber})</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {waiting.length > 0 && <OnBackorder data={data} waiting={waiting} />}
      {cancelled.length > 0 && (
        <div data-testid="backorder-cancelled">
          <h3 className="font-semibold">Cancelled from backorder</h3>
          <ul className="text-sm">
            {cancelled.map((l) => (
              <li key={l.line}>
                {backorderMessages.cancelledLine(l.backorder!.cancelled, l.productName)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {canShip && (
        // A form per set of lines to ship: its quantities go by their place in that set.
        <ShipForm key={toShip.map((l) => `${l.line}:${l.toShip}`).join()} data={data} />
      )}
    </section>
  );
}

type Line = OrderShipmentsData["lines"][number];

/**
 * The lines' units waiting for supply, each with its date and, on a paid order, the buyer's or
 * admin's "Cancel the 6 on backorder" (docs/inventory.md "Cancelling backordered units").
 */
function OnBackorder({ data, waiting }: { data: OrderShipmentsData; waiting: Line[] }) {
  const [cancelling, setCancelling] = useState<Line>();
  const cancel = useCancelBackorder(data.orderId);
  // Units that would still ship once these are cancelled: nothing, and the order goes whole.
  const leftBeside = (l: Line) =>
    data.lines.reduce(
      (n, o) => n + o.toShip + (o.line === l.line ? 0 : (o.backorder?.waiting ?? 0)),
      0,
    );
  return (
    <div data-testid="on-backorder">
      <h3 className="font-semibold">On backorder</h3>
      <ul className="flex flex-col gap-1 text-sm">
        {waiting.map((l) => (
          <li key={l.line} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span>
              {l.productName}:{" "}
              {backorderMessages.waiting(l.backorder!.waiting, l.backorder!.promisedOn)}
            </span>
            {data.status === "paid" && (
              <RowButton
                label={`${backorderMessages.cancelButton(l.backorder!.waiting)}: ${l.productName}`}
                tone="danger"
                onClick={() => setCancelling(l)}
              >
                {backorderMessages.cancelButton(l.backorder!.waiting)}
              </RowButton>
            )}
          </li>
        ))}
      </ul>
      {data.shipComplete && <p className="text-sm text-base-content/75">{SHIPS_COMPLETE_NOTE}</p>}
      <ActionDialog
        target={cancelling}
        close={() => setCancelling(undefined)}
        title={backorderMessages.cancelTitle}
        confirmLabel="Cancel them"
        action={cancel}
        id={(l) => String(l.line)}
        done={(r) =>
          notify.success(backorderMessages.cancelled(r.units, formatPrice(r.refunded, r.currency)))
        }
      >
        {(l) => (
          <>
            <p>{backorderMessages.cancelBody(l.backorder!.waiting, l.productName)}</p>
            {leftBeside(l) === 0 && data.shipments.length === 0 && (
              <p className="mt-2">{backorderMessages.cancelLast}</p>
            )}
          </>
        )}
      </ActionDialog>
    </div>
  );
}

function ShipmentItem({ s, n }: { s: Shipment; n: number }) {
  const carrier = s.carrier && carrierName(s.carrier);
  return (
    <li className="rounded-box border border-base-300 p-3" data-testid="shipment">
      <p className="text-sm text-base-content/80">
        Parcel {n} · shipped {formatDate(s.shippedAt)}
        {carrier ? ` with ${carrier}` : " without tracking"}
        {s.trackingNumber && (
          <>
            {" "}
            · tracking <TrackingNumber number={s.trackingNumber} url={s.trackingUrl} />
          </>
        )}
      </p>
      {s.from && <p className="text-sm text-base-content/80">From {s.from.name}</p>}
      <ul className="mt-1 text-sm">
        {s.lines.map((l) => (
          <li key={l.line}>
            {l.qty} × {l.productName}
            {l.partNumber && <span className="text-base-content/75"> ({l.partNumber})</span>}
            {l.lot && <span className="text-base-content/75"> · lot {l.lot}</span>}
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * "Ship selected": a quantity per line still to ship, and the carrier and tracking number, checked
 * with the shipment's own rules (the lines' "choose at least one" said under the quantities).
 */
const shipFormSchema = (lines: readonly { line: number; toShip: number }[]) =>
  z
    .object({
      qty: lineQuantitiesSchema,
      /** Each line's production lot, optional (docs/warranty.md "Lots"). */
      lot: z.array(z.string()),
      carrier: z.enum(shippingCarriers).or(z.literal("")),
      trackingNumber: z.string(),
      /** Where it ships from: asked only when units wait at more than one location. */
      locationId: z.string(),
    })
    .transform((v, ctx) => {
      const { chosen } = chosenLines(
        v.qty,
        lines.map((l) => ({ line: l.line, max: l.toShip })),
        ctx,
      );
      const place = (line: number) => lines.findIndex((l) => l.line === line);
      const withLots = chosen.map((c) => {
        const lot = v.lot[place(c.line)]?.trim();
        return lot ? { ...c, lot } : c;
      });
      const checked = shipmentCreateSchema.safeParse({
        lines: withLots,
        ...(v.carrier ? { carrier: v.carrier } : {}),
        ...(v.trackingNumber.trim() ? { trackingNumber: v.trackingNumber } : {}),
        ...(v.locationId ? { locationId: v.locationId } : {}),
      });
      for (const issue of checked.error?.issues ?? []) {
        // A lot's problem is said beside its box; the lines' other problems under them all.
        const [field, k, key] = issue.path;
        const path =
          field === "lines" && key === "lot"
            ? ["lot", place(withLots[Number(k)]!.line)]
            : [field === "lines" ? "qty" : String(field)];
        ctx.addIssue({ code: "custom", path, message: issue.message });
      }
      return checked.data ?? z.NEVER;
    });

/** The locations where the lines' units wait, each once, in the order the lines name them. */
function waitingLocations(lines: OrderShipmentsData["lines"]) {
  const seen = new Map<string, { id: string; name: string }>();
  for (const w of lines.flatMap((l) => l.waitingAt)) seen.set(w.id, { id: w.id, name: w.name });
  return [...seen.values()];
}

function ShipForm({ data }: { data: OrderShipmentsData }) {
  const ship = useShipLines(data.orderId);
  const lines = data.lines.filter((l) => l.toShip > 0);
  const schema = shipFormSchema(lines);
  const locations = waitingLocations(lines);
  const starting = {
    qty: lines.map(() => 0),
    lot: lines.map(() => ""),
    carrier: "" as const,
    trackingNumber: "",
    locationId: locations.length > 1 ? locations[0]!.id : "",
  };
  const { field, register, reset, submitWith, formError, formState } = useApiForm(schema, {
    defaultValues: starting,
  });
  const { errors } = formState;
  const linesError = errors.qty?.message ?? formError;

  return (
    <form
      className="flex flex-col gap-3 rounded-box border border-base-300 p-3"
      aria-label="Ship selected"
      noValidate
      onSubmit={submitWith(async (body) => {
        const result = await ship.mutateAsync(body);
        notify.success(
          result.status === "shipped"
            ? "Shipped: every part of the order is on its way"
            : "Shipment recorded: the customer is emailed",
        );
        reset(starting);
      })}
    >
      {locations.length > 1 && (
        <SelectField id="ship-lines-location" label="Ships from" {...register("locationId")}>
          {locations.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
      )}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">
          How many of each line ship now, and their lot (optional)
        </legend>
        {lines.map((l, i) => {
          const error = errors.qty?.[i]?.message;
          const lotError = errors.lot?.[i]?.message;
          return (
            <div key={l.line} className="flex flex-wrap items-center justify-between gap-3">
              <label htmlFor={`ship-qty-${l.line}`} className="text-sm">
                {l.productName}
                <span className="block text-xs text-base-content/75">
                  {l.toShip} of {l.ordered} to ship
                </span>
                {locations.length > 1 && (
                  <span className="block text-xs text-base-content/75">
                    {l.waitingAt.map((w) => `${w.qty} at ${w.name}`).join(" · ")}
                  </span>
                )}
              </label>
              <div className="flex flex-col items-end">
                <input
                  id={`ship-qty-${l.line}`}
                  type="number"
                  min={0}
                  max={l.toShip}
                  className={`input input-bordered w-24 ${error ? "input-error" : ""}`}
                  {...register(`qty.${i}`, quantityField)}
                />
                {error && <span className="text-xs text-error">{error}</span>}
              </div>
              <div className="flex flex-col items-end">
                <label htmlFor={`ship-lot-${l.line}`} className="sr-only">
                  Lot, line {l.line}
                </label>
                <input
                  id={`ship-lot-${l.line}`}
                  placeholder="Lot"
                  autoComplete="off"
                  maxLength={40}
                  aria-invalid={lotError ? true : undefined}
                  className={`input input-bordered w-28 ${lotError ? "input-error" : ""}`}
                  {...register(`lot.${i}`)}
                />
                {lotError && <span className="text-xs text-error">{lotError}</span>}
              </div>
            </div>
          );
        })}
      </fieldset>
      <SelectField id="ship-lines-carrier" label="Carrier" {...field("carrier")}>
        <CarrierOptions />
      </SelectField>
      <FormField
        id="ship-lines-tracking-number"
        label="Tracking number"
        autoComplete="off"
        maxLength={60}
        {...field("trackingNumber")}
      />
      <FormError message={linesError} />
      <button type="submit" className="btn btn-primary self-start" disabled={ship.isPending}>
        Ship selected
      </button>
    </form>
  );
}
