import { useState } from "react";
import type { Order } from "#contract/orders";
import {
  MAX_RETURN_PHOTOS,
  returnReasonLabels,
  returnReasons,
  type Return,
  type Returnable,
  type ReturnReason,
} from "#contract/returns";
import { Modal } from "../../../components/modal";
import { ApiError } from "../../../lib/api-client";
import { formatDate, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import {
  useAddReturnPhotos,
  useOrderCreditNotes,
  useOrderReturns,
  useRequestReturn,
  useReturnable,
} from "../api/returns";
import { checkPhotos, PHOTO_ACCEPT, ReturnPhotos } from "./return-photos";
import { ReturnStatusBadge } from "./return-status-badge";

/**
 * The order page's returns: "Return items" (the owner, a shipped order within the window), the
 * order's returns with their status, and its credit notes to download.
 */
export function OrderReturns({
  order,
  canRequest,
  partlyShipped = false,
}: {
  order: Order;
  canRequest: boolean;
  /** Some lines of a paid order have shipped: those can be returned (docs/partial-shipment.md). */
  partlyShipped?: boolean;
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
        />
      )}
    </section>
  );
}

function ReturnItem({ r, owner }: { r: Return; owner: boolean }) {
  const addPhotos = useAddReturnPhotos();
  const [photoError, setPhotoError] = useState<string>();
  const left = MAX_RETURN_PHOTOS - r.photos.length;
  const add = async (input: HTMLInputElement) => {
    const files = [...(input.files ?? [])];
    input.value = "";
    setPhotoError(checkPhotos(files, left));
    if (files.length === 0 || checkPhotos(files, left)) return;
    try {
      await addPhotos.mutateAsync({ returnId: r.id, files });
      notify.success(files.length === 1 ? "Photo added" : "Photos added");
    } catch (err) {
      setPhotoError((err as Error).message);
    }
  };
  return (
    <li className="rounded-box border border-base-300 p-3" data-testid="order-return">
      <div className="flex flex-wrap items-center gap-2">
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
          </li>
        ))}
      </ul>
      {r.adminMessage && <p className="mt-1 text-sm">The store: {r.adminMessage}</p>}
      <ReturnPhotos photos={r.photos} />
      {owner && r.status === "requested" && left > 0 && (
        <label className="mt-2 flex flex-col gap-1 text-sm">
          <span>Add photos (up to {left} more)</span>
          <input
            type="file"
            accept={PHOTO_ACCEPT}
            multiple
            disabled={addPhotos.isPending}
            className="file-input file-input-bordered file-input-sm w-full max-w-xs"
            onChange={(e) => void add(e.currentTarget)}
          />
        </label>
      )}
      {photoError && (
        <p role="alert" className="mt-1 text-sm text-error">
          {photoError}
        </p>
      )}
    </li>
  );
}

function ReturnForm({
  orderId,
  returnable,
  onClose,
}: {
  orderId: string;
  returnable: Returnable;
  onClose(): void;
}) {
  const ask = useRequestReturn(orderId);
  const addPhotos = useAddReturnPhotos();
  const [reason, setReason] = useState<ReturnReason | "">("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string>();
  // A core return sends back old parts of lines with a deposit; the others, the parts bought.
  const core = reason === "core";
  const limit = (l: Returnable["lines"][number]) => (core ? l.coresReturnable : l.returnable);
  const lines = returnable.lines.filter((l) => limit(l) > 0);
  const reasons = returnReasons.filter((r) =>
    r === "core"
      ? returnable.lines.some((l) => l.coresReturnable > 0)
      : returnable.eligible && returnable.lines.some((l) => l.returnable > 0),
  );

  const submit = async (form: FormData) => {
    setRefusal(undefined);
    const found: Record<string, string> = {};
    const chosen = lines.flatMap((l) => {
      const qty = Number(form.get(`qty-${l.line}`) || 0);
      if (!Number.isInteger(qty) || qty < 0 || qty > limit(l)) {
        found[`qty-${l.line}`] = `Between 0 and ${limit(l)}`;
        return [];
      }
      return qty > 0 ? [{ line: l.line, qty }] : [];
    });
    if (chosen.length === 0 && Object.keys(found).length === 0) {
      found.lines = "Choose how many of at least one part to return";
    }
    if (reason === "") found.reason = "Choose why you return the parts";
    const vehicle = String(form.get("vehicle") ?? "").trim();
    if (reason === "did_not_fit" && vehicle === "") {
      found.vehicle = "Name the vehicle the part did not fit";
    }
    // An empty file input still sends one nameless file.
    const photos = form
      .getAll("photos")
      .filter((f): f is File => f instanceof File && f.name !== "");
    const photoProblem = checkPhotos(photos);
    if (photoProblem) found.photos = photoProblem;
    setErrors(found);
    if (Object.keys(found).length > 0 || reason === "") return;
    const note = String(form.get("note") ?? "").trim();
    try {
      const made = await ask.mutateAsync({
        lines: chosen,
        reason,
        ...(reason === "did_not_fit" ? { vehicle } : {}),
        ...(note ? { note } : {}),
      });
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
    } catch (err) {
      if (err instanceof ApiError && err.fields) setErrors(err.fields);
      setRefusal((err as Error).message);
    }
  };

  return (
    <Modal open title="Return items" onClose={onClose}>
      <form
        className="flex flex-col gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(new FormData(e.currentTarget));
        }}
      >
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">How many of each part to return</legend>
          {core && (
            <p className="text-sm text-base-content/80">
              Send back the old part you replaced (the core): its deposit is refunded when it
              arrives.
            </p>
          )}
          {lines.map((l) => (
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
                  up to {limit(l)} of {l.bought}
                  {core && ` · deposit ${formatPrice(l.coreDeposit, returnable.currency)} each`}
                </span>
              </label>
              <div className="flex flex-col items-end">
                <input
                  id={`return-qty-${l.line}`}
                  name={`qty-${l.line}`}
                  type="number"
                  min={0}
                  max={limit(l)}
                  step={1}
                  defaultValue={lines.length === 1 ? limit(l) : 0}
                  className={`input input-bordered w-24 ${errors[`qty-${l.line}`] ? "input-error" : ""}`}
                  aria-label={`Quantity to return: ${l.productName}`}
                  aria-invalid={errors[`qty-${l.line}`] ? true : undefined}
                />
                {errors[`qty-${l.line}`] && (
                  <span className="text-sm text-error">{errors[`qty-${l.line}`]}</span>
                )}
              </div>
            </div>
          ))}
          {errors.lines && <p className="text-sm text-error">{errors.lines}</p>}
        </fieldset>
        <div className="flex flex-col gap-1">
          <label htmlFor="return-reason" className="text-sm font-medium">
            Reason
          </label>
          <select
            id="return-reason"
            name="reason"
            className={`select select-bordered w-full ${errors.reason ? "select-error" : ""}`}
            value={reason}
            onChange={(e) => setReason(e.target.value as ReturnReason | "")}
            aria-invalid={errors.reason ? true : undefined}
          >
            <option value="">Choose a reason</option>
            {reasons.map((r) => (
              <option key={r} value={r}>
                {returnReasonLabels[r]}
              </option>
            ))}
          </select>
          {errors.reason && <p className="text-sm text-error">{errors.reason}</p>}
        </div>
        {reason === "did_not_fit" && (
          <div className="flex flex-col gap-1">
            <label htmlFor="return-vehicle" className="text-sm font-medium">
              Vehicle
            </label>
            <input
              id="return-vehicle"
              name="vehicle"
              // Starts from the vehicle the parts were bought for; the customer may change it.
              defaultValue={lines.find((l) => l.vehicle)?.vehicle ?? ""}
              maxLength={200}
              placeholder="2012 VW Golf 1.6 TDI"
              className={`input input-bordered w-full ${errors.vehicle ? "input-error" : ""}`}
              aria-invalid={errors.vehicle ? true : undefined}
              required
            />
            {errors.vehicle && <p className="text-sm text-error">{errors.vehicle}</p>}
          </div>
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor="return-note" className="text-sm font-medium">
            Note (optional)
          </label>
          <textarea
            id="return-note"
            name="note"
            maxLength={2000}
            className="textarea textarea-bordered w-full"
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="return-photos" className="text-sm font-medium">
            Photos (optional)
          </label>
          <input
            id="return-photos"
            name="photos"
            type="file"
            accept={PHOTO_ACCEPT}
            multiple
            className={`file-input file-input-bordered w-full ${errors.photos ? "file-input-error" : ""}`}
            aria-describedby="return-photos-hint"
            aria-invalid={errors.photos ? true : undefined}
          />
          <span id="return-photos-hint" className="text-xs text-base-content/75">
            Up to {MAX_RETURN_PHOTOS} JPEG, PNG or WebP photos, 2 MiB each
          </span>
          {errors.photos && <p className="text-sm text-error">{errors.photos}</p>}
        </div>
        {refusal && (
          <p role="alert" className="text-sm text-error">
            {refusal}
          </p>
        )}
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={ask.isPending || addPhotos.isPending}
          >
            Ask to return
          </button>
        </div>
      </form>
    </Modal>
  );
}
