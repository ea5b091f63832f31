import { useState } from "react";
import {
  PARTIALLY_SHIPPED_LABEL,
  shipmentCreateSchema,
  type OrderShipments as OrderShipmentsData,
  type Shipment,
} from "#contract/shipments";
import {
  shippingCarrierLabels,
  shippingCarriers,
  type ShippingCarrier,
} from "#contract/shipping-carriers";
import { FormField } from "../../../components/form-field";
import { ApiError } from "../../../lib/api-client";
import { formatDate } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useShipLines } from "../api/shipments";

/**
 * The order page's shipments (docs/partial-shipment.md): each parcel with its lines and tracking
 * link, the lines still to ship, and for an admin "Ship selected" with per-line quantities.
 */
export function OrderShipments({ data, isAdmin }: { data: OrderShipmentsData; isAdmin: boolean }) {
  const toShip = data.lines.filter((l) => l.toShip > 0);
  const canShip = isAdmin && data.status === "paid" && toShip.length > 0;
  if (data.shipments.length === 0 && !canShip) return null;
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
      {canShip && <ShipForm data={data} />}
    </section>
  );
}

function ShipmentItem({ s, n }: { s: Shipment; n: number }) {
  const carrier =
    s.carrier === "other" ? "our carrier" : s.carrier && shippingCarrierLabels[s.carrier];
  return (
    <li className="rounded-box border border-base-300 p-3" data-testid="shipment">
      <p className="text-sm text-base-content/80">
        Parcel {n} · shipped {formatDate(s.shippedAt)}
        {carrier ? ` with ${carrier}` : " without tracking"}
        {s.trackingNumber && (
          <>
            {" "}
            · tracking{" "}
            {s.trackingUrl ? (
              <a
                href={s.trackingUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="link font-mono link-primary"
              >
                {s.trackingNumber}
                <span className="sr-only"> (opens the carrier's tracking page in a new tab)</span>
              </a>
            ) : (
              <span className="font-mono">{s.trackingNumber}</span>
            )}
          </>
        )}
      </p>
      <ul className="mt-1 text-sm">
        {s.lines.map((l) => (
          <li key={l.line}>
            {l.qty} × {l.productName}
            {l.partNumber && <span className="text-base-content/75"> ({l.partNumber})</span>}
          </li>
        ))}
      </ul>
    </li>
  );
}

function ShipForm({ data }: { data: OrderShipmentsData }) {
  const ship = useShipLines(data.orderId);
  const lines = data.lines.filter((l) => l.toShip > 0);
  const [qty, setQty] = useState<Record<number, string>>(
    Object.fromEntries(lines.map((l) => [l.line, "0"])),
  );
  const [carrier, setCarrier] = useState<ShippingCarrier | "">("");
  const [trackingNumber, setTrackingNumber] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async () => {
    const found: Record<string, string> = {};
    const chosen = lines.flatMap((l) => {
      const n = Number(qty[l.line] || 0);
      if (!Number.isInteger(n) || n < 0 || n > l.toShip) {
        found[`qty-${l.line}`] = `Between 0 and ${l.toShip}`;
        return [];
      }
      return n > 0 ? [{ line: l.line, qty: n }] : [];
    });
    const body = {
      lines: chosen,
      ...(carrier ? { carrier } : {}),
      ...(trackingNumber.trim() ? { trackingNumber } : {}),
    };
    const checked = shipmentCreateSchema.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const key = issue.path[0] === "lines" ? "lines" : String(issue.path[0]);
        found[key] ??= issue.message;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0 || !checked.success) return;
    try {
      const result = await ship.mutateAsync(checked.data);
      notify.success(
        result.status === "shipped"
          ? "Shipped: every part of the order is on its way"
          : "Shipment recorded: the customer is emailed",
      );
      setQty(Object.fromEntries(lines.map((l) => [l.line, "0"])));
      setCarrier("");
      setTrackingNumber("");
    } catch (err) {
      if (err instanceof ApiError && err.fields) setErrors(err.fields);
      else setErrors({ lines: (err as Error).message });
    }
  };

  return (
    <form
      className="flex flex-col gap-3 rounded-box border border-base-300 p-3"
      aria-label="Ship selected"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">How many of each line ship now</legend>
        {lines.map((l) => (
          <div key={l.line} className="flex items-center justify-between gap-3">
            <label htmlFor={`ship-qty-${l.line}`} className="text-sm">
              {l.productName}
              <span className="block text-xs text-base-content/75">
                {l.toShip} of {l.ordered} to ship
              </span>
            </label>
            <div className="flex flex-col items-end">
              <input
                id={`ship-qty-${l.line}`}
                type="number"
                min={0}
                max={l.toShip}
                className={`input input-bordered w-24 ${errors[`qty-${l.line}`] ? "input-error" : ""}`}
                value={qty[l.line] ?? "0"}
                onChange={(e) => setQty({ ...qty, [l.line]: e.target.value })}
              />
              {errors[`qty-${l.line}`] && (
                <span className="text-xs text-error">{errors[`qty-${l.line}`]}</span>
              )}
            </div>
          </div>
        ))}
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor="ship-lines-carrier" className="text-sm font-medium">
          Carrier
        </label>
        <select
          id="ship-lines-carrier"
          className={`select select-bordered w-full ${errors.carrier ? "select-error" : ""}`}
          value={carrier}
          onChange={(e) => setCarrier(e.target.value as ShippingCarrier | "")}
        >
          <option value="">No tracking</option>
          {shippingCarriers.map((c) => (
            <option key={c} value={c}>
              {shippingCarrierLabels[c]}
            </option>
          ))}
        </select>
        {errors.carrier && <p className="text-sm text-error">{errors.carrier}</p>}
      </div>
      <FormField
        id="ship-lines-tracking-number"
        name="trackingNumber"
        label="Tracking number"
        autoComplete="off"
        maxLength={60}
        value={trackingNumber}
        error={errors.trackingNumber}
        onChange={(e) => setTrackingNumber(e.target.value)}
      />
      {errors.lines && (
        <p className="text-sm text-error" role="alert">
          {errors.lines}
        </p>
      )}
      <button type="submit" className="btn btn-primary self-start" disabled={ship.isPending}>
        Ship selected
      </button>
    </form>
  );
}
