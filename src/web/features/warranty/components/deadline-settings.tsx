import { PageSection } from "../../../components/page-title";
import {
  MAX_DEADLINE_DAYS,
  warrantyDeadlineMessages,
  warrantyDeadlineSettingsSchema,
} from "#contract/warranty-deadlines";
import { NumberSettingsForm } from "../../../components/settings-form";
import { useSetWarrantyDeadlineSettings, useWarrantyDeadlineSettings } from "../api/deadlines";

/** The admin's warranty page section: each side's days on a claim, and the reminder before. */
export function DeadlineSettingsSection() {
  return (
    <PageSection headingId="warranty-deadlines-heading" title="Deadlines and reminders">
      <DeadlineSettingsForm />
    </PageSection>
  );
}

/**
 * The admin's deadline settings: the claimant's days to answer or send the part back, the
 * store's days to act, and how many days before a deadline its reminder is emailed.
 */
export function DeadlineSettingsForm() {
  return (
    <NumberSettingsForm
      query={useWarrantyDeadlineSettings()}
      save={useSetWarrantyDeadlineSettings()}
      schema={warrantyDeadlineSettingsSchema}
      messages={warrantyDeadlineMessages}
      label="Deadline settings"
      saveLabel="Save deadlines"
      fields={dayFields}
    >
      Each side's days count, in calendar days, from the claim's last change of status: the
      claimant's while the store waits for their answer or the part, the store's while the claim
      waits for a question, the inspection or the decision. The waiting side is emailed once, the
      days above before the last day (the store's reminder goes to every admin). New days apply at
      once to every open claim.
    </NumberSettingsForm>
  );
}

/** The three numbers, each a whole number of days up to `MAX_DEADLINE_DAYS`. */
const dayFields = [
  {
    id: "deadline-claimant",
    name: "claimantDays",
    label: "The claimant's days to answer or send the part back",
    min: 1,
    max: MAX_DEADLINE_DAYS,
  },
  {
    id: "deadline-store",
    name: "storeDays",
    label: "The store's days to act",
    min: 1,
    max: MAX_DEADLINE_DAYS,
  },
  {
    id: "deadline-reminder",
    name: "reminderDays",
    label: "Reminder before a deadline (days)",
    min: 0,
    max: MAX_DEADLINE_DAYS,
  },
] as const;
