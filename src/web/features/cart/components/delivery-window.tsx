import type { ShippingOption } from "#contract/shipping";

/**
 * When an option's parcels arrive and where they ship from ("Arrives 9–11 Dec 2026 · ships from
 * Chicago warehouse"; per origin when the order ships in parts), under the option's name.
 * Nothing when the method has no transit days (docs/shipping.md "Delivery estimates").
 */
export function DeliveryWindow({ option }: { option: ShippingOption }) {
  if (!option.delivery) return null;
  return (
    <span className="basis-full font-medium" data-testid="delivery-window">
      {option.delivery.words}
    </span>
  );
}
