import { useMemo, useState, type ChangeEvent, type ComponentType } from "react";
import { useWatch } from "react-hook-form";
import { z } from "zod";
import type { Order } from "#contract/orders";
import {
  MAX_RETURN_PHOTOS,
  receivedConditionLabels,
  returnMessages,
  returnReasonLabels,
  returnReasons,
  type Return,
  type Returnable,
  type ReturnRequestInput,
} from "#contract/returns";
import { paths } from "#contract/paths";
import { FormError } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { TextAreaField } from "../../../components/text-area-field";
import { Link } from "../../../components/link";
import { Modal } from "../../../components/modal";
import { formatDate, formatPrice } from "../../../lib/format";
import { chosenLines, lineQuantitiesSchema, quantityField } from "../../../lib/line-quantities";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import type { VehicleChoice } from "../../../lib/vehicle-choice";
import {
  useAddReturnPhotos,
  useOrderCreditNotes,
  useOrderReturns,
  useRequestReturn,
  useReturnable,
} from "../api/returns";
import { AddPhotosInput } from "../../../components/private-photos";
import { checkPhotos, PHOTO_ACCEPT, ReturnPhotos } from "./return-photos";
import { ReturnStatusBadge } from "./return-status-badge";
import { ReturnDialogButtons } from "./return-dialog-buttons";
import { SelectOptions } from "../../../components/select-options";

/**
 * The order page's returns: "Return items" (the owner, a shipped order within the window), the
 * order's returns with their status, and its credit notes to download.
 */
/** Picks a "did not fit" vehicle from My garage or the selector (composed by the app). */
export type VehiclePicker = ComponentType<{ onPick(choice: VehicleChoice, label: string): void }>;

export function OrderReturns({
  order,
  canRequest,
  partlyShipped = false,
  VehiclePicker,
}: {
  order: Order;
  canRequest: boolean;
  /** Some lines of a paid order have shipped: those can be returned (docs/shipments.md). */
  partlyShipped?: boolean;
  VehiclePicker?: VehiclePicker;
}) {
  // Returns exist only for shipped parts; a cancelled paid order has its refund's credit note.
  const shipped = order.status === "shipped" || (order.status === "paid" && partlyShipped);
  const relevant = shipped || order.status === "cancelled";
  const returnable = useReturnable(order._id, shipped && canRequest);
  const returns = useOrderReturns(order._id, shipped);
  const creditNotes = useOrderCreditNotes(order._id, relevant);
  const [asking, setAsking] = useState(false);
  if (!relevant) return null;

  const partsOpen =
    returnable.data?.eligible && returnable.data.lines.some((l) => l.returnable > 0);
  // Cores (old parts of lines with a deposit) have their own, longer window (docs/core-charges.md).
  const coresOpen = returnable.data?.lines.some((l) => l.coresReturnable > 0) ?? false;
  const open = partsOpen || coresOpen;
  const hasReturns = (returns.data?.length ?? 0) > 0;
  const hasNotes = (creditNotes.data?.length ?? 0) > 0;
  if (!canRequest && !hasReturns && !hasNotes) return null;

  return (
    <section aria-labelledby="returns-heading" className="flex flex-col gap-3">
      <h2 id="returns-heading" className="text-lg font-bold">
        Returns and refunds
      </h2>
      {canRequest && returnable.data && (
        <div className="flex flex-wrap items-center gap-3">
          {open ? (
            <>
              <button type="button" className="btn btn-outline" onClick={() => setAsking(true)}>
                Return items
              </button>
              {partsOpen && returnable.data.until && (
                <span className="text-sm text-base-content/80">
                  You can ask to return parts until {formatDate(returnable.data.until)}.
                </span>
              )}
              {coresOpen && returnable.data.coreUntil && (
                <span className="text-sm text-base-content/80" data-testid="core-return-until">
                  Send old parts (cores) back for their deposit until{" "}
                  {formatDate(returnable.data.coreUntil)}.
                </span>
              )}
            </>
          ) : (
            <p className="text-sm text-base-content/80">
              {returnable.data.reason ?? "Every part of this order is already in a return."}
            </p>
          )}
        </div>
      )}
      {(returns.error || creditNotes.error || returnable.error) && (
        <p className="text-sm text-error">The returns of this order could not be loaded.</p>
      )}
      {hasReturns && (
        <ul className="flex flex-col gap-2">
          {returns.data!.map((r) => (
            <ReturnItem key={r.id} r={r} owner={canRequest} />
          ))}
        </ul>
      )}
      {hasNotes && (
        <ul className="flex flex-col gap-1" aria-label="Credit notes">
          {creditNotes.data!.map((cn) => (
            <li key={cn.id} className="flex flex-wrap items-center gap-2" data-testid="credit-note">
              <a href={cn.pdfUrl} download className="link link-primary">
                Credit note {cn.number}
              </a>
              <span className="text-sm text-base-content/80">
                · issued {formatDate(cn.issuedAt)} · {formatPrice(cn.total, cn.currency)}
                {cn.corrects && ` · corrects ${cn.corrects}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {asking && returnable.data && (
        <ReturnForm
          orderId={order._id}
          returnable={returnable.data}
          onClose={() => setAsking(false)}
          VehiclePicker={VehiclePicker}
        />
      )}
    </section>
  );
}

function ReturnItem({ r, owner }: { r: Return; owner: boolean }) {
  const addPhotos = useAddReturnPhotos();
  const left = MAX_RETURN_PHOTOS - r.photos.length;
  return (
    <li className="rounded-box border border-base-300 p-3" data-testid="order-return">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono font-semibold" data-testid="return-rma">
          {r.rma}
        </span>
        <ReturnStatusBadge status={r.status} />
        <span className="text-sm text-base-content/80">
          Asked {formatDate(r.requestedAt)} · {returnReasonLabels[r.reason]}
          {r.vehicle && ` (${r.vehicle})`} · {formatPrice(r.amount, r.currency)}
        </span>
      </div>
      <ul className="mt-1 text-sm">
        {r.lines.map((l) => (
          <li key={l.line}>
            {l.qty} × {r.reason === "core" ? "Core of " : ""}
            {l.productName}
            {l.partNumber && <span className="text-base-content/75"> ({l.partNumber})</span>}
            {l.received && (
              <span className="block text-xs text-base-content/80">
                Received {l.received.qty},{" "}
                {receivedConditionLabels[l.received.condition].toLowerCase()}
                {l.received.fee > 0 &&
                  ` · restocking fee ${formatPrice(l.received.fee, r.currency)}`}
                {` · refund ${formatPrice(l.received.refund, r.currency)}`}
              </span>
            )}
          </li>
        ))}
      </ul>
      {r.status === "approved" && (
        <p className="mt-1 text-sm">
          Send the parts to our returns address (see{" "}
          <Link to={paths.contact} className="link">
            Contact
          </Link>
          ) with {r.rma} written on the parcel.
        </p>
      )}
      {r.adminMessage && <p className="mt-1 text-sm">The store: {r.adminMessage}</p>}
      <ReturnPhotos photos={r.photos} />
      {owner && r.status === "requested" && left > 0 && (
        <AddPhotosInput
          left={left}
          messages={returnMessages}
          label={`Add photos (up to ${left} more)`}
          send={(files) => addPhotos.mutateAsync({ returnId: r.id, files })}
        />
      )}
    </li>
  );
}

type ReturnableLine = Returnable["lines"][number];

/** How many of a line may go back: cores for a core return, else the parts bought. */
const limitOf = (l: ReturnableLine, core: boolean) => (core ? l.coresReturnable : l.returnable);
/** The lines a return of this kind can take, with how many of each. */
const linesFor = (returnable: Returnable, core: boolean) =>
  returnable.lines
    .filter((l) => limitOf(l, core) > 0)
    .map((l) => ({ ...l, max: limitOf(l, core) }));
/** The quantities as the form starts: all of the only line, else none. */
const startingQty = (returnable: Returnable, core: boolean) => {
  const lines = linesFor(returnable, core);
  return lines.map((l) => (lines.length === 1 ? l.max : 0));
};

// An empty file input still sends one nameless file.
const photosOf = (files: FileList | null | undefined) =>
  [...(files ?? [])].filter((f) => f.name !== "");

/**
 * The return form's fields (a quantity per line shown, in its order), checked as the customer
 * sends them, with the words said beside each; the output is the request and its photos.
 */
const returnFormSchema = (returnable: Returnable) =>
  z
    .object({
      qty: lineQuantitiesSchema,
      reason: z.enum(returnReasons).or(z.literal("")),
      vehicle: z.string(),
      /** Picked from My garage or the selector; `vehicle` then holds its name. */
      vehicleChoice: z.custom<VehicleChoice | undefined>(),
      note: z.string(),
      photos: z.custom<FileList | null | undefined>(),
    })
    .transform((v, ctx) => {
      const shown = linesFor(returnable, v.reason === "core");
      const { chosen, inRange } = chosenLines(v.qty, shown, ctx);
      if (inRange && chosen.length === 0) {
        ctx.addIssue({
          code: "custom",
          path: ["qty"],
          message: "Choose how many of at least one part to return",
        });
      }
      const vehicle = v.vehicle.trim();
      if (v.reason === "did_not_fit" && vehicle === "") {
        ctx.addIssue({
          code: "custom",
          path: ["vehicle"],
          message: "Name the vehicle the part did not fit",
        });
      }
      const photos = photosOf(v.photos);
      const photoProblem = checkPhotos(photos);
      if (photoProblem) ctx.addIssue({ code: "custom", path: ["photos"], message: photoProblem });
      if (v.reason === "") {
        ctx.addIssue({
          code: "custom",
          path: ["reason"],
          message: "Choose why you return the parts",
        });
        return z.NEVER;
      }
      const note = v.note.trim();
      const request: ReturnRequestInput = {
        lines: chosen,
        reason: v.reason,
        ...(v.reason === "did_not_fit"
          ? v.vehicleChoice
            ? { vehicleChoice: v.vehicleChoice }
            : { vehicle }
          : {}),
        ...(note ? { note } : {}),
      };
      return { request, photos };
    });

const RETURN_FORM = "return-form";

function ReturnForm({
  orderId,
  returnable,
  onClose,
  VehiclePicker,
}: {
  orderId: string;
  returnable: Returnable;
  onClose(): void;
  VehiclePicker?: VehiclePicker;
}) {
  const ask = useRequestReturn(orderId);
  const addPhotos = useAddReturnPhotos();
  const schema = useMemo(() => returnFormSchema(returnable), [returnable]);
  const { control, register, setValue, submitWith, formError, formState } = useApiForm(schema, {
    defaultValues: {
      qty: startingQty(returnable, false),
      reason: "",
      // Starts from the vehicle the parts were bought for; the customer may change it.
      vehicle: linesFor(returnable, false).find((l) => l.vehicle)?.vehicle ?? "",
      vehicleChoice: undefined,
      note: "",
      photos: undefined,
    },
  });
  const { errors } = formState;
  const reason = useWatch({ control, name: "reason" });
  const vehicleChoice = useWatch({ control, name: "vehicleChoice" });
  // A core return sends back old parts of lines with a deposit; the others, the parts bought.
  const core = reason === "core";
  const lines = linesFor(returnable, core);
  const reasons = returnReasons.filter((r) =>
    r === "core"
      ? returnable.lines.some((l) => l.coresReturnable > 0)
      : returnable.eligible && returnable.lines.some((l) => l.returnable > 0),
  );

  const send = async ({ request, photos }: z.output<typeof schema>) => {
    const made = await ask.mutateAsync(request);
    if (photos.length > 0) {
      try {
        await addPhotos.mutateAsync({ returnId: made.id, files: photos });
      } catch (err) {
        // The return stands; the customer can add the photos again from the order page.
        notify.error(
          `Your return was requested, but the photos were not added: ${(err as Error).message}`,
        );
        onClose();
        return;
      }
    }
    notify.success(
      `Return requested for ${formatPrice(made.amount, made.currency)}: we email you our answer`,
    );
    onClose();
  };

  return (
    <Modal open title="Return items" onClose={onClose}>
      {/* The vehicle picker has forms of its own, so it sits between the form's two parts (a
          form may not hold another); the fields after it belong to the form by its id. */}
      <form id={RETURN_FORM} className="flex flex-col gap-3" noValidate onSubmit={submitWith(send)}>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">How many of each part to return</legend>
          {core && (
            <p className="text-sm text-base-content/80">
              Send back the old part you replaced (the core): its deposit is refunded when it
              arrives.
            </p>
          )}
          {lines.map((l, i) => {
            const error = errors.qty?.[i]?.message;
            return (
              <div key={`${core}-${l.line}`} className="flex items-center justify-between gap-3">
                <label htmlFor={`return-qty-${l.line}`} className="text-sm">
                  {core ? `Core of ${l.productName}` : l.productName}
                  {l.partNumber && (
                    <span className="block text-xs text-base-content/75">{l.partNumber}</span>
                  )}
                  {l.vehicle && (
                    <span className="block text-xs text-base-content/75">For: {l.vehicle}</span>
                  )}
                  <span className="block text-xs text-base-content/75">
                    up to {l.max} of {l.bought}
                    {core && ` · deposit ${formatPrice(l.coreDeposit, returnable.currency)} each`}
                  </span>
                </label>
                <div className="flex flex-col items-end">
                  <input
                    id={`return-qty-${l.line}`}
                    type="number"
                    min={0}
                    max={l.max}
                    step={1}
                    className={`input input-bordered w-24 ${error ? "input-error" : ""}`}
                    aria-label={`Quantity to return: ${l.productName}`}
                    aria-invalid={error ? true : undefined}
                    {...register(`qty.${i}`, quantityField)}
                  />
                  {error && <span className="text-sm text-error">{error}</span>}
                </div>
              </div>
            );
          })}
          {errors.qty?.message && <p className="text-sm text-error">{errors.qty.message}</p>}
        </fieldset>
        <SelectField
          label="Reason"
          id="return-reason"
          error={errors.reason?.message}
          {...register("reason", {
            // Parts and cores are counted apart: the quantities start again for the other kind.
            onChange: (e: ChangeEvent<HTMLSelectElement>) => {
              const toCore = e.target.value === "core";
              if (toCore !== core) setValue("qty", startingQty(returnable, toCore));
            },
          })}
        >
          <SelectOptions empty="Choose a reason" values={reasons} labels={returnReasonLabels} />
        </SelectField>
        {reason === "did_not_fit" && (
          <div className="flex flex-col gap-1">
            <label htmlFor="return-vehicle" className="text-sm font-medium">
              Vehicle
            </label>
            <input
              id="return-vehicle"
              maxLength={200}
              placeholder="2012 VW Golf 1.6 TDI"
              className={`input input-bordered w-full ${errors.vehicle ? "input-error" : ""}`}
              aria-invalid={errors.vehicle ? true : undefined}
              aria-describedby="return-vehicle-hint"
              required
              {...register("vehicle", {
                // Words typed by hand are the customer's, no longer the catalog's vehicle.
                onChange: () => setValue("vehicleChoice", undefined),
              })}
            />
            <span id="return-vehicle-hint" className="text-xs text-base-content/75">
              {vehicleChoice
                ? "From the catalog."
                : "Pick it below, or type it if it is not in our list."}
            </span>
            {errors.vehicle && <p className="text-sm text-error">{errors.vehicle.message}</p>}
          </div>
        )}
      </form>
      {reason === "did_not_fit" && VehiclePicker && (
        <div className="mt-2">
          <VehiclePicker
            onPick={(choice, label) => {
              setValue("vehicleChoice", choice);
              setValue("vehicle", label, { shouldValidate: formState.isSubmitted });
            }}
          />
        </div>
      )}
      <div className="mt-3 flex flex-col gap-3">
        <TextAreaField
          id="return-note"
          label="Note (optional)"
          form={RETURN_FORM}
          maxLength={2000}
          {...register("note")}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="return-photos" className="text-sm font-medium">
            Photos (optional)
          </label>
          <input
            id="return-photos"
            form={RETURN_FORM}
            type="file"
            accept={PHOTO_ACCEPT}
            multiple
            className={`file-input file-input-bordered w-full ${errors.photos ? "file-input-error" : ""}`}
            aria-describedby="return-photos-hint"
            aria-invalid={errors.photos ? true : undefined}
            {...register("photos")}
          />
          <span id="return-photos-hint" className="text-xs text-base-content/75">
            Up to {MAX_RETURN_PHOTOS} JPEG, PNG or WebP photos, 2 MiB each
          </span>
          {errors.photos && <p className="text-sm text-error">{errors.photos.message}</p>}
        </div>
        <FormError message={formError} />
        <ReturnDialogButtons
          onClose={onClose}
          busy={ask.isPending || addPhotos.isPending}
          form={RETURN_FORM}
        >
          Ask to return
        </ReturnDialogButtons>
      </div>
    </Modal>
  );
}
