import { useWatch } from "react-hook-form";
import { z } from "zod";
import {
  lineReceipt,
  receivedConditionLabels,
  receivedConditions,
  type RestockingFee,
  type Return,
} from "#contract/returns";
import { FormError } from "../../../components/form-field";
import { Modal } from "../../../components/modal";
import { useConfirm } from "../../../components/confirm-dialog";
import { formatPrice } from "../../../lib/format";
import { lineQuantitiesSchema, quantityField } from "../../../lib/line-quantities";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useRestockingFee, useReturnAction } from "../api/returns";
import { ReturnDialogButtons } from "./return-dialog-buttons";

const cents = (units: number) => Math.round(units * 100);

/** The form's fields: per line (in the return's order) how many arrived and their condition. */
const receiveFormSchema = (r: Return) =>
  z
    .object({
      qty: lineQuantitiesSchema,
      condition: z.array(z.enum(receivedConditions)),
    })
    .transform((v, ctx) =>
      r.lines.map((l, i) => {
        const qty = v.qty[i] ?? 0;
        if (!Number.isInteger(qty) || qty < 0 || qty > l.qty) {
          ctx.addIssue({ code: "custom", path: ["qty", i], message: `Between 0 and ${l.qty}` });
        }
        return { line: l.line, qty, condition: v.condition[i] ?? "as_new" };
      }),
    );

/**
 * What the lines as typed refund, in cents, by the rule the server applies: a warranty claim's
 * part refunds nothing now and never goes back on sale (its claim decides).
 */
function figures(r: Return, qty: number[], condition: string[], fee: RestockingFee) {
  const lines = r.lines.map((l, i) => {
    const received = {
      qty: Number.isInteger(qty[i]) ? Math.min(Math.max(qty[i]!, 0), l.qty) : 0,
      condition: (condition[i] ?? "as_new") as (typeof receivedConditions)[number],
    };
    const asked = { qty: l.qty, netCents: cents(l.net), taxCents: cents(l.tax) };
    const receipt = lineReceipt(r.reason, asked, received, fee);
    return r.warrantyClaim
      ? { ...receipt, refundNetCents: 0, refundTaxCents: 0, restock: 0 }
      : receipt;
  });
  const refund = lines.reduce((s, l) => s + l.refundNetCents + l.refundTaxCents, 0);
  return { lines, refund, fee: lines.reduce((s, l) => s + l.feeCents, 0) };
}

/**
 * "Mark received": the admin says, per line, how many arrived and in what condition; the dialog
 * shows what that refunds (after the restocking fee) and asks to confirm the amount before the
 * money moves. The server decides again and refuses (409) if its amount differs.
 */
export function ReceiveDialog({ r, onClose }: { r: Return; onClose(): void }) {
  const feeRule = useRestockingFee();
  const action = useReturnAction();
  const [confirm, confirmDialog] = useConfirm();
  const { control, register, submitWith, formError, formState } = useApiForm(receiveFormSchema(r), {
    defaultValues: {
      qty: r.lines.map((l) => l.qty),
      condition: r.lines.map(() => "as_new" as const),
    },
  });
  const qty = useWatch({ control, name: "qty" });
  const condition = useWatch({ control, name: "condition" });
  const fee = feeRule.data ?? { percent: 0, conditions: [] };
  const shown = figures(r, qty, condition, fee);
  const money = (c: number) => formatPrice(c / 100, r.currency);

  const send = async (lines: z.output<ReturnType<typeof receiveFormSchema>>) => {
    const { refund, fee: kept } = figures(
      r,
      lines.map((l) => l.qty),
      lines.map((l) => l.condition),
      fee,
    );
    const claim = r.warrantyClaim;
    const sure = await confirm({
      title: claim
        ? `Receive the part of warranty claim ${claim}?`
        : refund > 0
          ? `Refund ${money(refund)}?`
          : "Close this return without a refund?",
      body: (
        <div className="flex flex-col gap-1" data-testid="receive-confirm">
          <p>
            {r.rma} of order for {r.orderEmail}:{" "}
            {lines
              .map(
                (l, i) =>
                  `${l.qty} × ${r.lines[i]!.productName} ${receivedConditionLabels[l.condition].toLowerCase()}`,
              )
              .join(", ")}
            .
          </p>
          {kept > 0 && <p>Restocking fee kept: {money(kept)}.</p>}
          <p className="font-semibold">
            {claim
              ? `Kept for warranty claim ${claim}: nothing is refunded now, and its decision says what is.`
              : refund > 0
                ? `The customer is refunded ${money(refund)} and emailed a credit note.`
                : "Nothing is refunded."}
          </p>
        </div>
      ),
      confirmLabel: claim
        ? "Receive the part"
        : refund > 0
          ? `Refund ${money(refund)}`
          : "Close return",
      tone: "positive",
    });
    if (!sure) return;
    const after = await action.mutateAsync({
      kind: "receive",
      id: r.id,
      body: { lines, expectedRefund: refund / 100 },
    });
    notify.success(
      after.status === "inspecting"
        ? `Received for warranty claim ${claim}: decide the claim next`
        : after.status === "refunded"
          ? `Received and refunded: credit note ${after.creditNote?.number ?? ""}`
          : after.status === "closed"
            ? "Received: nothing to refund"
            : `Received; the refund failed: ${after.refundError ?? "see the list"}`,
    );
    onClose();
  };

  const select = "select select-bordered select-sm w-full";
  return (
    <Modal open title={`Receive ${r.rma}`} onClose={onClose}>
      <form className="flex flex-col gap-3" noValidate onSubmit={submitWith(send)}>
        <p className="text-sm text-base-content/80">
          What arrived, line by line. Only parts back as new go on sale again.
        </p>
        {r.lines.map((l, i) => {
          const error = formState.errors.qty?.[i]?.message;
          const line = shown.lines[i]!;
          return (
            <fieldset
              key={l.line}
              className="rounded-box border border-base-300 p-3"
              data-testid="receive-line"
            >
              <legend className="px-1 text-sm font-medium">
                {l.productName}
                {l.partNumber && ` (${l.partNumber})`} · {l.qty} sent back
              </legend>
              <div className="grid grid-cols-2 gap-3">
                <label className="flex flex-col gap-1 text-sm">
                  <span>Received</span>
                  <input
                    type="number"
                    min={0}
                    max={l.qty}
                    step={1}
                    aria-label={`Received: ${l.productName}`}
                    aria-invalid={error ? true : undefined}
                    className={`input input-bordered input-sm w-full ${error ? "input-error" : ""}`}
                    {...register(`qty.${i}`, quantityField)}
                  />
                  {error && <span className="text-error">{error}</span>}
                </label>
                <label className="flex flex-col gap-1 text-sm">
                  <span>Condition</span>
                  <select
                    aria-label={`Condition: ${l.productName}`}
                    className={select}
                    {...register(`condition.${i}`)}
                  >
                    {receivedConditions.map((c) => (
                      <option key={c} value={c}>
                        {receivedConditionLabels[c]}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <p className="mt-2 text-sm" data-testid="receive-line-refund">
                {r.warrantyClaim
                  ? `Kept for warranty claim ${r.warrantyClaim}`
                  : `Refund ${money(line.refundNetCents + line.refundTaxCents)}`}
                {line.feeCents > 0 && ` (restocking fee ${money(line.feeCents)})`}
                {line.restock > 0 ? ` · ${line.restock} back on sale` : " · not back on sale"}
              </p>
            </fieldset>
          );
        })}
        <p className="text-sm text-base-content/80">
          {r.warrantyClaim
            ? `The failed part of warranty claim ${r.warrantyClaim}: nothing goes back on sale, and the claim's decision says what is refunded.`
            : fee.percent > 0 && fee.conditions.length > 0
              ? `Restocking fee: ${fee.percent}% of parts received ${fee.conditions.map((c) => receivedConditionLabels[c].toLowerCase()).join(" or ")}, on returns for the customer's own reasons (did not fit, no longer needed).`
              : "No restocking fee."}
        </p>
        <p className="text-lg font-semibold" data-testid="receive-total">
          {r.warrantyClaim ? "Refund now: none" : `Refund: ${money(shown.refund)}`}
          {shown.fee > 0 && (
            <span className="block text-sm font-normal">
              Restocking fee kept: {money(shown.fee)}
            </span>
          )}
        </p>
        <FormError message={formError} />
        <ReturnDialogButtons onClose={onClose} busy={action.isPending || feeRule.isPending}>
          Receive
        </ReturnDialogButtons>
      </form>
      {confirmDialog}
    </Modal>
  );
}
