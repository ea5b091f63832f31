import { type ShippingCarrier } from "#contract/shipping-carriers";
import { CarrierOptions } from "../../../components/carriers";
import { FormField } from "../../../components/form-field";

export interface ShipmentInput {
  carrier: ShippingCarrier | "";
  trackingNumber: string;
}

/**
 * The ship dialog's optional fields: who carries the parcel and its tracking number (both or
 * neither; docs/shipments.md). The server checks and normalises them.
 */
export function ShipmentFields({
  value,
  errors,
  onChange,
}: {
  value: ShipmentInput;
  errors: Partial<Record<keyof ShipmentInput, string>>;
  onChange(next: ShipmentInput): void;
}) {
  return (
    <fieldset className="mt-3 flex flex-col gap-3" data-testid="shipment-fields">
      <legend className="mb-1 text-sm text-base-content/80">
        Tracking (optional): give both, or leave both empty.
      </legend>
      <div className="flex flex-col gap-1">
        <label htmlFor="ship-carrier" className="text-sm font-medium">
          Carrier
        </label>
        <select
          id="ship-carrier"
          className={`select select-bordered w-full ${errors.carrier ? "select-error" : ""}`}
          value={value.carrier}
          aria-invalid={errors.carrier ? true : undefined}
          aria-describedby={errors.carrier ? "ship-carrier-error" : undefined}
          onChange={(e) => onChange({ ...value, carrier: e.target.value as ShippingCarrier | "" })}
        >
          <CarrierOptions />
        </select>
        {errors.carrier && (
          <p id="ship-carrier-error" className="text-sm text-error">
            {errors.carrier}
          </p>
        )}
      </div>
      <FormField
        id="ship-tracking-number"
        name="trackingNumber"
        label="Tracking number"
        autoComplete="off"
        maxLength={60}
        value={value.trackingNumber}
        error={errors.trackingNumber}
        onChange={(e) => onChange({ ...value, trackingNumber: e.target.value })}
      />
    </fieldset>
  );
}
