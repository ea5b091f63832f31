import {
  MAX_DEADLINE_DAYS,
  warrantyDeadlineMessages,
  warrantyDeadlineSettingsSchema,
  type WarrantyDeadlineSettings,
} from "#contract/warranty-deadlines";
import {
  SettingNumberField,
  SettingsFormFrame,
  SettingsLoader,
} from "../../../components/settings-form";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useSetWarrantyDeadlineSettings, useWarrantyDeadlineSettings } from "../api/deadlines";

/** The admin's warranty page section: each side's days on a claim, and the reminder before. */
export function DeadlineSettingsSection() {
  return (
    <section aria-labelledby="warranty-deadlines-heading" className="flex flex-col gap-4">
      <h2 id="warranty-deadlines-heading" className="text-xl font-bold">
        Deadlines and reminders
      </h2>
      <DeadlineSettingsForm />
    </section>
  );
}

/**
 * The admin's deadline settings: the claimant's days to answer or send the part back, the
 * store's days to act, and how many days before a deadline its reminder is emailed.
 */
export function DeadlineSettingsForm() {
  return (
    <SettingsLoader query={useWarrantyDeadlineSettings()}>
      {(settings) => <SettingsForm settings={settings} />}
    </SettingsLoader>
  );
}

function SettingsForm({ settings }: { settings: WarrantyDeadlineSettings }) {
  const save = useSetWarrantyDeadlineSettings();
  const { field, submitWith, formError } = useApiForm(warrantyDeadlineSettingsSchema, {
    defaultValues: {
      claimantDays: settings.claimantDays,
      storeDays: settings.storeDays,
      reminderDays: settings.reminderDays,
    },
  });
  return (
    <SettingsFormFrame
      label="Deadline settings"
      formError={formError}
      busy={save.isPending}
      saveLabel="Save deadlines"
      onSubmit={submitWith(async (next) => {
        const saved = await save.mutateAsync(next);
        notify.success(warrantyDeadlineMessages.saved(saved));
      })}
    >
      <SettingNumberField
        id="deadline-claimant"
        label="The claimant's days to answer or send the part back"
        min={1}
        max={MAX_DEADLINE_DAYS}
        field={field("claimantDays", { valueAsNumber: true })}
      />
      <SettingNumberField
        id="deadline-store"
        label="The store's days to act"
        min={1}
        max={MAX_DEADLINE_DAYS}
        field={field("storeDays", { valueAsNumber: true })}
      />
      <SettingNumberField
        id="deadline-reminder"
        label="Reminder before a deadline (days)"
        min={0}
        max={MAX_DEADLINE_DAYS}
        field={field("reminderDays", { valueAsNumber: true })}
      />
      <p className="text-sm text-base-content/75">
        Each side's days count, in calendar days, from the claim's last change of status: the
        claimant's while the store waits for their answer or the part, the store's while the claim
        waits for a question, the inspection or the decision. The waiting side is emailed once, the
        days above before the last day (the store's reminder goes to every admin). New days apply at
        once to every open claim.
        {settings.updatedAt === null && ` ${warrantyDeadlineMessages.defaultsInForce}`}
      </p>
    </SettingsFormFrame>
  );
}
