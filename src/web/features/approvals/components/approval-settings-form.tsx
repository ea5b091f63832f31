import {
  APPROVAL_WINDOW_MAX_BUSINESS_DAYS,
  approvalSettingsMessages,
  approvalSettingsSchema,
  type ApprovalSettings,
} from "#contract/approvals";
import { FormError } from "../../../components/form-field";
import { PageSpinner } from "../../../components/spinner";
import { QueryError } from "../../../components/query-error";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useApprovalSettings, useSetApprovalSettings } from "../api/approvals";

/**
 * The admin's approval settings: how many business days an order awaiting approval keeps its
 * stock, and how many hours before that ends its company's owners are reminded.
 */
export function ApprovalSettingsForm() {
  const current = useApprovalSettings();
  if (current.isPending) return <PageSpinner />;
  if (current.error) return <QueryError error={current.error} />;
  // Settings saved start the form afresh from them.
  return <SettingsForm key={JSON.stringify(current.data)} settings={current.data} />;
}

function SettingsForm({ settings }: { settings: ApprovalSettings }) {
  const save = useSetApprovalSettings();
  const { register, submitWith, formError, formState } = useApiForm(approvalSettingsSchema, {
    defaultValues: {
      windowBusinessDays: settings.windowBusinessDays,
      reminderHours: settings.reminderHours,
    },
  });
  const windowError = formState.errors.windowBusinessDays?.message;
  const reminderError = formState.errors.reminderHours?.message;
  return (
    <form
      className="flex max-w-xl flex-col gap-3"
      noValidate
      aria-label="Approval settings"
      onSubmit={submitWith(async (next) => {
        const saved = await save.mutateAsync(next);
        notify.success(approvalSettingsMessages.saved(saved));
      })}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor="approval-window" className="text-sm font-medium">
          Approval window (business days)
        </label>
        <input
          id="approval-window"
          type="number"
          min={1}
          max={APPROVAL_WINDOW_MAX_BUSINESS_DAYS}
          step={1}
          className={`input input-bordered w-32 ${windowError ? "input-error" : ""}`}
          aria-invalid={windowError ? true : undefined}
          aria-describedby={windowError ? "approval-window-error" : undefined}
          {...register("windowBusinessDays", { valueAsNumber: true })}
        />
        {windowError && (
          <span id="approval-window-error" className="text-sm text-error">
            {windowError}
          </span>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="approval-reminder" className="text-sm font-medium">
          Reminder before it ends (hours)
        </label>
        <input
          id="approval-reminder"
          type="number"
          min={1}
          step={1}
          className={`input input-bordered w-32 ${reminderError ? "input-error" : ""}`}
          aria-invalid={reminderError ? true : undefined}
          aria-describedby={reminderError ? "approval-reminder-error" : undefined}
          {...register("reminderHours", { valueAsNumber: true })}
        />
        {reminderError && (
          <span id="approval-reminder-error" className="text-sm text-error">
            {reminderError}
          </span>
        )}
      </div>
      <p className="text-sm text-base-content/75">
        An order over a buyer's spending limit keeps its stock this many business days (Monday to
        Friday) while it waits for an owner of the company; undecided by then, it is cancelled. The
        owners are emailed a reminder the hours above before that. A new window applies to orders
        placed from now on; the reminder's hours apply at once.
        {settings.updatedAt === null && ` ${approvalSettingsMessages.defaultsInForce}`}
      </p>
      <FormError message={formError} />
      <button type="submit" className="btn btn-primary w-fit" disabled={save.isPending}>
        Save settings
      </button>
    </form>
  );
}
