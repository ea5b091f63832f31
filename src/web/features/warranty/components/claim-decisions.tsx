import { useState, type ComponentProps } from "react";
import type { DefaultValues, FieldValues } from "react-hook-form";
import type { z } from "zod";
import {
  claimApprovalSchema,
  claimInspectionSchema,
  claimPartRequestSchema,
  claimRejectionSchema,
  claimRemedies,
  claimRemedyLabels,
  MAX_CLAIM_TEXT,
  warrantyMessages,
  type Claim,
} from "#contract/warranty";
import { FormDialog, useFormDialog } from "../../../components/form-dialog";
import { SelectField } from "../../../components/select-field";
import { TextAreaField } from "../../../components/text-area-field";
import { useClaimAction, useFailureCodes } from "../api/warranty";

type ClaimAction = Parameters<ReturnType<typeof useClaimAction>["mutateAsync"]>[0];
type Decision = Exclude<ClaimAction["kind"], "message">;

/**
 * The store's decisions on an open claim (docs/warranty.md "Its life"): ask for the part back
 * (a return with its RMA), record the inspection, approve (a $0 replacement order, or the
 * returned part's refund), reject with the reason. Each in its dialog; the claimant is emailed.
 */
export function ClaimDecisions({ claim }: { claim: Claim }) {
  const [deciding, setDeciding] = useState<Decision>();
  const close = () => setDeciding(undefined);
  // Asked back and not arrived: decided only by a rejection until its return is received.
  const waitingForPart = claim.partReturn?.status === "approved";
  const button = (decision: Decision, label: string, tone = "") => (
    <button
      type="button"
      className={`btn btn-outline btn-sm ${tone}`}
      onClick={() => setDeciding(decision)}
    >
      {label}
    </button>
  );
  return (
    <>
      {waitingForPart && claim.partReturn && (
        <p className="text-sm" data-testid="claim-waiting-part">
          Waiting for the part: mark {claim.partReturn.rma} received on the Returns page when it
          arrives.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {!claim.partReturn && button("request-part", "Ask for the part back")}
        {button("inspect", "Record inspection")}
        {!waitingForPart && button("approve", "Approve", "btn-success")}
        {button("reject", "Reject", "btn-error")}
      </div>
      {deciding === "request-part" && <RequestPartDialog claim={claim} onClose={close} />}
      {deciding === "inspect" && <InspectDialog claim={claim} onClose={close} />}
      {deciding === "approve" && <ApproveDialog claim={claim} onClose={close} />}
      {deciding === "reject" && <RejectDialog claim={claim} onClose={close} />}
    </>
  );
}

/** A decision's text area, as long as a claim's text may be. */
function ClaimText(props: ComponentProps<typeof TextAreaField>) {
  return <TextAreaField rows={3} maxLength={MAX_CLAIM_TEXT} {...props} />;
}

/**
 * A decision's form: the contract's `schema` from `defaultValues`, sent as the claim's `kind`,
 * then what `said` of the claim answered is shown and the dialog closed. `dialog` is what its
 * FormDialog takes from it.
 */
function useDecisionForm<Input extends FieldValues, Output extends FieldValues>(
  claim: Claim,
  kind: Decision,
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<NoInfer<Input>>,
  said: (decided: Claim) => string,
  onClose: () => void,
) {
  const action = useClaimAction();
  const form = useFormDialog(schema, defaultValues, {
    write: (body) => action.mutateAsync({ kind, id: claim.id, body } as ClaimAction),
    busy: action.isPending,
    said,
    onClose,
  });
  return { ...form, dialog: { named: true, ...form.dialog } };
}

function RequestPartDialog({ claim, onClose }: { claim: Claim; onClose(): void }) {
  const { field, dialog } = useDecisionForm(
    claim,
    "request-part",
    claimPartRequestSchema,
    { instructions: "" },
    (asked) =>
      `Part asked back as ${asked.partReturn?.rma ?? "a return"}: the claimant is emailed where to send it`,
    onClose,
  );
  return (
    <FormDialog
      title={`Ask for the part of claim ${claim.number}`}
      submitLabel="Ask for the part back"
      {...dialog}
    >
      <p className="text-sm">
        The claimant gets a return number (RMA) and the returns address by email. When the part
        arrives, mark its return received on the Returns page: nothing goes back on sale and nothing
        is refunded until you decide the claim.
      </p>
      <ClaimText
        id={`instructions-${claim.id}`}
        label="Instructions (optional; the claimant reads these)"
        {...field("instructions")}
      />
    </FormDialog>
  );
}

function ApproveDialog({ claim, onClose }: { claim: Claim; onClose(): void }) {
  const partBack = claim.partReturn?.status === "inspecting";
  const { register, field, formState, dialog } = useDecisionForm(
    claim,
    "approve",
    claimApprovalSchema,
    { remedy: "replacement", message: "" },
    (approved) =>
      approved.replacementOrder
        ? `Claim ${claim.number} approved: replacement order ${approved.replacementOrder.number} is ready to ship`
        : `Claim ${claim.number} approved: the returned part is refunded`,
    onClose,
  );
  return (
    <FormDialog title={`Approve claim ${claim.number}`} submitLabel="Approve the claim" {...dialog}>
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium">What the claimant gets</legend>
        {claimRemedies.map((remedy) => (
          <label key={remedy} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              className="radio radio-sm"
              value={remedy}
              disabled={remedy === "refund" && !partBack}
              {...register("remedy")}
            />
            {claimRemedyLabels[remedy]}
          </label>
        ))}
        <p className="text-xs text-base-content/75">
          {partBack
            ? "A refund gives back what the returned part was paid, as a return is refunded, with its credit note."
            : warrantyMessages.refundNeedsPart}
        </p>
        <p className="text-xs text-base-content/75">
          A replacement is a new order of {claim.qty} × {claim.productName} at no charge, to the
          original order&apos;s address; ship it from the Orders page with its tracking number.
        </p>
      </fieldset>
      {formState.errors.remedy && (
        <p className="text-sm text-error">{formState.errors.remedy.message}</p>
      )}
      <ClaimText
        id={`approve-${claim.id}`}
        label="Message (optional; the claimant reads this)"
        {...field("message")}
      />
    </FormDialog>
  );
}

function RejectDialog({ claim, onClose }: { claim: Claim; onClose(): void }) {
  const { field, dialog } = useDecisionForm(
    claim,
    "reject",
    claimRejectionSchema,
    { reason: "" },
    () => `Claim ${claim.number} rejected: the claimant is emailed why`,
    onClose,
  );
  return (
    <FormDialog title={`Reject claim ${claim.number}`} submitLabel="Reject the claim" {...dialog}>
      <ClaimText
        id={`reject-${claim.id}`}
        label="Why (the claimant reads this)"
        {...field("reason")}
      />
    </FormDialog>
  );
}

function InspectDialog({ claim, onClose }: { claim: Claim; onClose(): void }) {
  const codes = useFailureCodes();
  const { field, dialog } = useDecisionForm(
    claim,
    "inspect",
    claimInspectionSchema,
    { failureCode: claim.inspection?.code ?? "", findings: "" },
    () => `Inspection of claim ${claim.number} recorded: the claimant is emailed it`,
    onClose,
  );
  return (
    <FormDialog title={`Inspect claim ${claim.number}`} submitLabel="Record inspection" {...dialog}>
      <SelectField id={`code-${claim.id}`} label="Failure code" {...field("failureCode")}>
        <option value="">Choose a failure code</option>
        {codes.data
          ?.filter((c) => c.active)
          .map((c) => (
            <option key={c.code} value={c.code}>
              {c.code} · {c.label}
            </option>
          ))}
      </SelectField>
      <ClaimText
        id={`findings-${claim.id}`}
        label="Findings (the claimant reads these)"
        {...field("findings")}
      />
    </FormDialog>
  );
}
