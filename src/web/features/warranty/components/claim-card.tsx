import { z } from "zod";
import { paths } from "#contract/paths";
import {
  claimMessageInputSchema,
  claimRemedyLabels,
  claimStatusLabels,
  installerLabels,
  MAX_CLAIM_PHOTOS,
  MAX_CLAIM_TEXT,
  isOpenClaim,
  warrantyMessages,
  type Claim,
  type ClaimStatus,
} from "#contract/warranty";
import { returnStatusLabels } from "#contract/returns";
import { carrierName, TrackingNumber } from "../../../components/carriers";
import { FormError } from "../../../components/form-field";
import { TextAreaField } from "../../../components/text-area-field";
import { Link } from "../../../components/link";
import { formatCount, formatDateTime } from "../../../lib/format";
import { dayWords } from "#contract/calendar";
import { ClaimDeadlineNote } from "./claim-deadline";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { AddPhotosInput, PhotoThumbnails } from "../../../components/private-photos";
import { useAddClaimPhotos, useClaimAction } from "../api/warranty";
import { ClaimDecisions } from "./claim-decisions";
import { ClaimLots } from "./claim-lots";

const tones: Record<ClaimStatus, string> = {
  submitted: "badge-info",
  information_requested: "badge-warning",
  part_requested: "badge-warning",
  part_received: "badge-info",
  inspected: "badge-accent",
  approved: "badge-success",
  rejected: "badge-error",
};

/** A claim's status, in words. */
export function ClaimStatusBadge({ status }: { status: ClaimStatus }) {
  return (
    <span className={`badge h-auto ${tones[status]}`} data-testid="claim-status">
      {claimStatusLabels[status]}
    </span>
  );
}

const isOpen = (c: Claim) => isOpenClaim(c.status);

/**
 * One claim: the part, the vehicle and what happened, its history (messages of both sides and
 * each change of status), and while it is open a reply box. `store`: the admin's view, who may
 * ask for information instead of only writing, and reject with a reason.
 */
export function ClaimCard({
  claim,
  store,
  withOrder = false,
}: {
  claim: Claim;
  store: boolean;
  /** Link to the claim's order (in a list of claims; not on the order's own page). */
  withOrder?: boolean;
}) {
  const addPhotos = useAddClaimPhotos();
  return (
    <article
      className="flex flex-col gap-2 rounded-box border border-base-300 p-3"
      aria-label={`Warranty claim ${claim.number}`}
      data-testid="warranty-claim"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono font-semibold" data-testid="claim-number">
          {claim.number}
        </span>
        <ClaimStatusBadge status={claim.status} />
        <span className="text-sm text-base-content/80">
          {claim.qty} × {claim.productName}
          {claim.partNumber && ` (${claim.partNumber})`}
          {withOrder && (
            <>
              {" · order "}
              <Link to={paths.order.to(claim.orderId)} className="link font-mono">
                {claim.orderNumber}
              </Link>
            </>
          )}
        </span>
      </div>
      <ClaimDeadlineNote claim={claim} store={store} />
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        <dt className="text-base-content/75">VIN</dt>
        <dd className="font-mono break-all">{claim.vin}</dd>
        <ClaimLots lots={claim.lots} />
        <dt className="text-base-content/75">Mileage</dt>
        <dd>
          {formatCount(claim.mileageAtInstall)} at installation,{" "}
          {formatCount(claim.mileageAtFailure)} at failure
        </dd>
        <dt className="text-base-content/75">Dates</dt>
        <dd>
          Fitted {dayWords(claim.installedOn)}, failed {dayWords(claim.failedOn)}
        </dd>
        <dt className="text-base-content/75">Fitted by</dt>
        <dd>{installerLabels[claim.installedBy]}</dd>
        {claim.customerInvoiceRef && (
          <>
            <dt className="text-base-content/75">Customer invoice</dt>
            <dd>{claim.customerInvoiceRef}</dd>
          </>
        )}
        <dt className="text-base-content/75">Warranty until</dt>
        <dd>{dayWords(claim.warrantyEndsOn)}</dd>
        {store && (
          <>
            <dt className="text-base-content/75">Claimant</dt>
            <dd className="break-all">
              {claim.claimant.name} ({claim.claimant.email})
              {claim.claimant.company && ` · ${claim.claimant.company}`}
            </dd>
          </>
        )}
      </dl>
      <p className="text-sm whitespace-pre-line">“{claim.description}”</p>
      {claim.inspection && (
        <p className="text-sm" data-testid="claim-inspection">
          <span className="font-medium">Inspection ({formatDateTime(claim.inspection.at)}):</span>{" "}
          {claim.inspection.label} ({claim.inspection.code}). {claim.inspection.findings}
        </p>
      )}
      <ClaimOutcome claim={claim} />
      <PhotoThumbnails photos={claim.photos} of="the claim" />
      {!store && isOpen(claim) && claim.photos.length < MAX_CLAIM_PHOTOS && (
        <AddPhotosInput
          left={MAX_CLAIM_PHOTOS - claim.photos.length}
          messages={warrantyMessages}
          label={`Add photos of the part (up to ${MAX_CLAIM_PHOTOS - claim.photos.length} more)`}
          send={(files) => addPhotos.mutateAsync({ claimId: claim.id, files })}
        />
      )}
      <ol
        className="flex flex-col gap-1 border-l-2 border-base-300 pl-3 text-sm"
        aria-label="History"
      >
        {claim.events.map((e) => (
          <li key={e.id}>
            <span className="text-xs text-base-content/75">
              {formatDateTime(e.at)} · {e.author}
              {e.status && ` · ${claimStatusLabels[e.status]}`}
            </span>
            {e.body && <p className="whitespace-pre-line">{e.body}</p>}
          </li>
        ))}
      </ol>
      {!store && claim.status === "information_requested" && (
        <p className="text-sm font-medium">We asked for more information: please answer below.</p>
      )}
      {isOpen(claim) && <ReplyForm claim={claim} store={store} />}
      {store && isOpen(claim) && <ClaimDecisions claim={claim} />}
    </article>
  );
}

const replySchema = claimMessageInputSchema.extend({ askForInformation: z.boolean() });

function ReplyForm({ claim, store }: { claim: Claim; store: boolean }) {
  const action = useClaimAction();
  const { register, field, submitWith, formError, reset } = useApiForm(replySchema, {
    defaultValues: { body: "", askForInformation: false },
  });
  const send = async (body: z.output<typeof replySchema>) => {
    await action.mutateAsync({ kind: "message", id: claim.id, body });
    notify.success(body.askForInformation ? "Question sent" : "Message sent");
    reset();
  };
  return (
    <form noValidate className="flex flex-col gap-2" onSubmit={submitWith(send)}>
      <TextAreaField
        id={`claim-reply-${claim.id}`}
        label={store ? "Message to the claimant" : "Your message"}
        rows={2}
        maxLength={MAX_CLAIM_TEXT}
        {...field("body")}
      />
      {store && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            {...register("askForInformation")}
          />
          Ask for information (the claim waits for their answer)
        </label>
      )}
      <FormError message={formError} />
      <div>
        <button type="submit" className="btn btn-sm" disabled={action.isPending}>
          Send
        </button>
      </div>
    </form>
  );
}

/**
 * Where the claim's part and remedy stand: the part asked back (its RMA and its return's status),
 * and once approved the remedy: the replacement order, with its tracking once it ships.
 */
function ClaimOutcome({ claim }: { claim: Claim }) {
  const order = claim.replacementOrder;
  return (
    <>
      {claim.partReturn && (
        <p className="text-sm" data-testid="claim-part-return">
          <span className="font-medium">Part asked back:</span> return{" "}
          <span className="font-mono">{claim.partReturn.rma}</span> ·{" "}
          {returnStatusLabels[claim.partReturn.status]}
        </p>
      )}
      {claim.remedy && (
        <p className="text-sm" data-testid="claim-remedy">
          <span className="font-medium">Approved:</span> {claimRemedyLabels[claim.remedy]}
          {order && (
            <>
              {" · order "}
              <Link to={paths.order.to(order.id)} className="link font-mono">
                {order.number}
              </Link>
              {order.status === "shipped" && order.carrier && order.trackingNumber ? (
                <>
                  {" "}
                  · shipped with {carrierName(order.carrier)} · tracking{" "}
                  <TrackingNumber number={order.trackingNumber} url={order.trackingUrl} />
                </>
              ) : order.status === "shipped" ? (
                " · shipped"
              ) : (
                " · not shipped yet"
              )}
            </>
          )}
        </p>
      )}
    </>
  );
}
