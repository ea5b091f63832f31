import { lowStockEmailSchema, lowStockEmailWords, type LowStockEmail } from "#contract/admin-home";
import {
  SettingNumberField,
  SettingsFormFrame,
  SettingsLoader,
  useSettingsForm,
} from "../../../components/settings-form";
import { useLowStockEmail, useSetLowStockEmail } from "../api/admin-home";

/**
 * Admin: the daily low-stock email (docs/admin-home.md): whether every admin gets it, and from
 * which hour of the day (UTC).
 */
export function LowStockEmailForm() {
  return (
    <section aria-labelledby="low-stock-email-heading" className="flex flex-col gap-2">
      <h3 id="low-stock-email-heading" className="text-lg font-semibold">
        {lowStockEmailWords.title}
      </h3>
      <SettingsLoader query={useLowStockEmail()}>
        {(settings) => <EmailForm settings={settings} />}
      </SettingsLoader>
    </section>
  );
}

function EmailForm({ settings: { updatedAt, ...values } }: { settings: LowStockEmail }) {
  const { register, field, frame } = useSettingsForm(
    lowStockEmailSchema,
    values,
    useSetLowStockEmail(),
    lowStockEmailWords.saved,
  );
  return (
    <SettingsFormFrame label={lowStockEmailWords.title} saveLabel="Save email settings" {...frame}>
      <label className="flex cursor-pointer items-center gap-3">
        <input type="checkbox" className="checkbox checkbox-sm" {...register("enabled")} />
        {lowStockEmailWords.enabled}
      </label>
      <SettingNumberField
        id="low-stock-email-hour"
        label={lowStockEmailWords.hourUtc}
        min={0}
        max={23}
        field={field("hourUtc", { valueAsNumber: true })}
      />
      <p className="text-sm text-base-content/75">
        {lowStockEmailWords.hint}
        {updatedAt === null && ` ${lowStockEmailWords.defaultsInForce}`}
      </p>
    </SettingsFormFrame>
  );
}
