import {
  APPROVAL_WINDOW_MAX_BUSINESS_DAYS,
  approvalSettingsMessages,
  approvalSettingsSchema,
} from "#contract/approvals";
import { NumberSettingsForm } from "../../../components/settings-form";
import { useApprovalSettings, useSetApprovalSettings } from "../api/approvals";

/**
 * The admin's approval settings: how many business days an order awaiting approval keeps its
 * stock, and how many hours before that ends its company's owners are reminded.
 */
export function ApprovalSettingsForm() {
  return (
    <NumberSettingsForm
      query={useApprovalSettings()}
      save={useSetApprovalSettings()}
      schema={approvalSettingsSchema}
      messages={approvalSettingsMessages}
      label="Approval settings"
      saveLabel="Save settings"
      fields={[
        {
          name: "windowBusinessDays",
          id: "approval-window",
          label: "Approval window (business days)",
          min: 1,
          max: APPROVAL_WINDOW_MAX_BUSINESS_DAYS,
        },
        {
          name: "reminderHours",
          id: "approval-reminder",
          label: "Reminder before it ends (hours)",
          min: 1,
        },
      ]}
    >
      An order over a buyer's spending limit keeps its stock this many business days (Monday to
      Friday) while it waits for an owner of the company; undecided by then, it is cancelled. The
      owners are emailed a reminder the hours above before that. A new window applies to orders
      placed from now on; the reminder's hours apply at once.
    </NumberSettingsForm>
  );
}
