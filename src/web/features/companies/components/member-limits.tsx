import { companyMemberUpdateSchema, type CompanyMember } from "#contract/companies";
import { FormError, FormField, SubmitButton } from "../../../components/form-field";
import { Modal } from "../../../components/modal";
import { formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useUpdateMember } from "../api/companies";

/** A spending limit as the members table shows it. */
export const limitText = (limit: number | null) =>
  limit === null ? "No limit" : formatPrice(limit);

/** An empty field is "no limit" (null), as is one never filled in; else it is an amount. */
const asLimit = {
  setValueAs: (v: string | number | null) => (v === "" || v === null ? null : Number(v)),
};

/** A limit's input: an amount from 0, to the cent, typed on the phone's decimal pad. */
const limitInput = { type: "number", inputMode: "decimal", min: "0", step: "0.01" } as const;

/**
 * A member's per-order and monthly spending limits, set by the company's owners (My company) or
 * an admin (the company's page): an order over either waits for an owner's approval
 * (docs/approvals.md). The server decides who may (`PATCH /api/companies/{id}/members/{userId}`).
 */
export function MemberLimitsDialog({
  companyId,
  member,
  onClose,
}: {
  companyId: string;
  /** The member whose limits are edited; undefined: the dialog is closed. */
  member: CompanyMember | undefined;
  onClose(): void;
}) {
  return (
    <Modal
      open={member !== undefined}
      title={member ? `Spending limits of ${member.name || member.email}` : "Spending limits"}
      onClose={onClose}
    >
      {member && <LimitsForm companyId={companyId} member={member} onDone={onClose} />}
    </Modal>
  );
}

function LimitsForm({
  companyId,
  member,
  onDone,
}: {
  companyId: string;
  member: CompanyMember;
  onDone(): void;
}) {
  const update = useUpdateMember(companyId);
  const { field, submitWith, formError } = useApiForm(companyMemberUpdateSchema, {
    defaultValues: { orderLimit: member.orderLimit, monthlyLimit: member.monthlyLimit },
  });
  return (
    <form
      aria-label="Spending limits"
      className="flex flex-col gap-3"
      onSubmit={submitWith(async (body) => {
        await update.mutateAsync({ userId: member.userId, body });
        notify.success(`Spending limits of ${member.email} saved`);
        onDone();
      })}
    >
      <p className="text-sm text-base-content/75">
        An order over either limit waits for an owner's approval. Leave a field empty for no limit.
      </p>
      <FormField
        label="Per-order limit"
        id="limit-order"
        {...limitInput}
        {...field("orderLimit", asLimit)}
      />
      <FormField
        label="Monthly limit"
        id="limit-monthly"
        {...limitInput}
        hint="What they may order in a calendar month (UTC) before orders need approval"
        {...field("monthlyLimit", asLimit)}
      />
      <FormError message={formError} />
      <div className="modal-action">
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
        <SubmitButton busy={update.isPending}>Save limits</SubmitButton>
      </div>
    </form>
  );
}
