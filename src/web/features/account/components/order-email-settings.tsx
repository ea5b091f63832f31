import type { NotificationPreferences } from "#contract/notifications";
import { useNotificationPreferences, useUpdateNotificationPreferences } from "../api/notifications";

const choices: { key: keyof NotificationPreferences; label: string }[] = [
  { key: "orderShipped", label: "Email me when an order ships" },
  {
    key: "holdReminder",
    label: "Remind me by email before an unpaid order's hold ends",
  },
];

/**
 * My Info: the optional order emails, each a switch saved at once. Order placed, payment
 * received and order cancelled are always sent.
 */
export function OrderEmailSettings() {
  const prefs = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  return (
    <section aria-labelledby="order-emails" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4">
        <h2 id="order-emails" className="card-title">
          Order emails
        </h2>
        <p className="text-sm">
          We always email you when you place an order, when we receive its payment, and if it is
          cancelled because it was not paid in time.
        </p>
        {prefs.data &&
          choices.map((c) => (
            <label
              key={c.key}
              className="label cursor-pointer justify-start gap-3 whitespace-normal"
            >
              <input
                type="checkbox"
                className="toggle toggle-primary shrink-0"
                checked={prefs.data[c.key]}
                disabled={update.isPending}
                onChange={(e) => update.mutate({ [c.key]: e.target.checked })}
              />
              <span className="text-base-content">{c.label}</span>
            </label>
          ))}
        {prefs.error && <p className="text-error text-sm">{prefs.error.message}</p>}
        {update.error && (
          <p role="alert" className="text-error text-sm">
            {update.error.message}
          </p>
        )}
      </div>
    </section>
  );
}
