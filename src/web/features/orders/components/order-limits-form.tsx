import {
  MAX_FREE_UNITS,
  MAX_HELD_VALUE,
  MAX_HOLD_HOURS,
  MAX_NEW_CUSTOMER_HOLD_MINUTES,
  MAX_ORDERS_PER_MINUTE,
  MAX_QUICK_ORDER_PER_MINUTE,
  orderLimitMessages,
  orderLimitsSchema,
  type OrderLimits,
} from "#contract/order-limits";
import {
  SettingNumberField,
  SettingsFormFrame,
  SettingsLoader,
  useSettingsForm,
} from "../../../components/settings-form";
import { useSiteConfig } from "../../../lib/use-site-config";
import { useOrderLimits, useSetOrderLimits } from "../api/orders-admin";

/**
 * The admin's order limits: how long an unpaid order holds its stock, how much of it one account
 * may hold, and how often it may order (docs/ordering.md "Holds that cannot be abused").
 */
export function OrderLimitsForm() {
  return (
    <SettingsLoader query={useOrderLimits()}>
      {(limits) => <LimitsForm limits={limits} />}
    </SettingsLoader>
  );
}

function LimitsForm({ limits }: { limits: OrderLimits }) {
  const { updatedAt, ...values } = limits;
  const currency = useSiteConfig().data?.currency;
  const { field, frame } = useSettingsForm(
    orderLimitsSchema,
    values,
    useSetOrderLimits(),
    orderLimitMessages.saved,
  );
  const number = { valueAsNumber: true } as const;
  return (
    <SettingsFormFrame label="Order limits" saveLabel="Save limits" {...frame}>
      <SettingNumberField
        id="hold-hours"
        label="Unpaid orders hold their stock for (hours)"
        min={1}
        max={MAX_HOLD_HOURS}
        field={field("holdHours", number)}
      />
      <SettingNumberField
        id="new-customer-hold-minutes"
        label="A new customer's unpaid order holds it for (minutes)"
        min={1}
        max={MAX_NEW_CUSTOMER_HOLD_MINUTES}
        field={field("newCustomerHoldMinutes", number)}
      />
      <SettingNumberField
        id="max-share-percent"
        label="One order line may hold (% of the part's stock on sale)"
        min={1}
        max={100}
        field={field("maxSharePercent", number)}
      />
      <SettingNumberField
        id="free-units"
        label="A line of up to this many units always may (units)"
        min={0}
        max={MAX_FREE_UNITS}
        field={field("freeUnits", number)}
      />
      <SettingNumberField
        id="new-customer-share-percent"
        label="New customers together may hold (% of a part's stock; 100: no cap)"
        min={1}
        max={100}
        field={field("newCustomerSharePercent", number)}
      />
      <SettingNumberField
        id="max-held-value"
        label={`One account's unpaid orders may hold (value${currency ? ` in ${currency}` : ""})`}
        min={0.01}
        max={MAX_HELD_VALUE}
        step={0.01}
        field={field("maxHeldValue", number)}
      />
      <SettingNumberField
        id="orders-per-minute"
        label="Orders one account may place a minute"
        min={1}
        max={MAX_ORDERS_PER_MINUTE}
        field={field("ordersPerMinute", number)}
      />
      <SettingNumberField
        id="quick-order-per-minute"
        label="Quick-order lookups a minute (per visitor and per account)"
        min={1}
        max={MAX_QUICK_ORDER_PER_MINUTE}
        field={field("quickOrderPerMinute", number)}
      />
      <p className="text-sm text-base-content/75">
        A new customer has not paid for an order yet and belongs to no company. An unpaid order
        whose hold ends is cancelled and its stock goes back on sale. New limits apply to every
        order placed from now on; orders placed before keep their hold.
        {updatedAt === null && ` ${orderLimitMessages.defaultsInForce}`}
      </p>
    </SettingsFormFrame>
  );
}
