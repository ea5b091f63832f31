import { type ShippingCarrier } from "#contract/shipping-carriers";
import { CarrierOptions } from "../../../components/carriers";
import { FormField } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";

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
      <SelectField
        label="Carrier"
        id="ship-carrier"
        error={errors.carrier}
        value={value.carrier}
        onChange={(e) => onChange({ ...value, carrier: e.target.value as ShippingCarrier | "" })}
      >
        <CarrierOptions />
      </SelectField>
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
