import {
  MAX_FREE_UNITS,
  MAX_HELD_VALUE,
  MAX_HOLD_HOURS,
  MAX_NEW_CUSTOMER_HOLD_MINUTES,
  MAX_ORDERS_PER_MINUTE,
  MAX_QUICK_ORDER_PER_MINUTE,
  orderLimitMessages,
  orderLimitsSchema,
  type OrderLimitsInput,
} from "#contract/order-limits";
import { NumberSettingsForm } from "../../../components/settings-form";
import { useSiteConfig } from "../../../lib/use-site-config";
import { useOrderLimits, useSetOrderLimits } from "../api/orders-admin";

/**
 * The admin's order limits: how long an unpaid order holds its stock, how much of it one account
 * may hold, and how often it may order (docs/ordering.md "Holds that cannot be abused").
 */
export function OrderLimitsForm() {
  const currency = useSiteConfig().data?.currency;
  return (
    <NumberSettingsForm
      query={useOrderLimits()}
      save={useSetOrderLimits()}
      schema={orderLimitsSchema}
      messages={orderLimitMessages}
      label="Order limits"
      saveLabel="Save limits"
      fields={fields(currency).map((f) => ({ ...f, id: `order-limit-${f.name}` }))}
    >
      A new customer has not paid for an order yet and belongs to no company. An unpaid order whose
      hold ends is cancelled and its stock goes back on sale. New limits apply to every order placed
      from now on; orders placed before keep their hold.
    </NumberSettingsForm>
  );
}

/** The form's fields, in its order: what each limit is called and the numbers it takes. */
const fields = (currency: string | undefined) =>
  [
    {
      name: "holdHours",
      label: "Unpaid orders hold their stock for (hours)",
      min: 1,
      max: MAX_HOLD_HOURS,
    },
    {
      name: "newCustomerHoldMinutes",
      label: "A new customer's unpaid order holds it for (minutes)",
      min: 1,
      max: MAX_NEW_CUSTOMER_HOLD_MINUTES,
    },
    {
      name: "holdWarningHours",
      label: "Remind the buyer this long before a hold ends (hours)",
      min: 1,
      max: MAX_HOLD_HOURS,
    },
    {
      name: "maxSharePercent",
      label: "One order line may hold (% of the part's stock on sale)",
      min: 1,
      max: 100,
    },
    {
      name: "freeUnits",
      label: "A line of up to this many units always may (units)",
      min: 0,
      max: MAX_FREE_UNITS,
    },
    {
      name: "newCustomerSharePercent",
      label: "New customers together may hold (% of a part's stock; 100: no cap)",
      min: 1,
      max: 100,
    },
    {
      name: "maxHeldValue",
      label: `One account's unpaid orders may hold (value${currency ? ` in ${currency}` : ""})`,
      min: 0.01,
      max: MAX_HELD_VALUE,
      step: 0.01,
    },
    {
      name: "ordersPerMinute",
      label: "Orders one account may place a minute",
      min: 1,
      max: MAX_ORDERS_PER_MINUTE,
    },
    {
      name: "quickOrderPerMinute",
      label: "Quick-order lookups a minute (per visitor and per account)",
      min: 1,
      max: MAX_QUICK_ORDER_PER_MINUTE,
    },
  ] satisfies {
    name: keyof OrderLimitsInput;
    label: string;
    min: number;
    max: number;
    step?: number;
  }[];
