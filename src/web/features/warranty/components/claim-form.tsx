import { useState } from "react";
import { z } from "zod";
import {
  claimInputSchema,
  installerLabels,
  installers,
  MAX_CLAIM_PHOTOS,
  MAX_CLAIM_TEXT,
  warrantyMessages,
  type Claimable,
  type Installer,
} from "#contract/warranty";
import { FormDialog } from "../../../components/form-dialog";
import { FormField, typedNumber, wholeNumber } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { TextAreaField } from "../../../components/text-area-field";
import { checkPhotoFiles, PHOTO_ACCEPT } from "../../../components/private-photos";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useAddClaimPhotos, useFileClaim } from "../api/warranty";

type ClaimableLine = Claimable["lines"][number];

/**
 * The form's fields as typed, turned into the request and checked by the contract's own schema:
 * its words are the ones said beside each field, as the server would say them.
 */
const claimFormSchema = (orderId: string, line: number) =>
  z
    .object({
      qty: z.string(),
      vin: z.string(),
      mileageAtInstall: z.string(),
      mileageAtFailure: z.string(),
      installedOn: z.string(),
      failedOn: z.string(),
      installedBy: z.string(),
      description: z.string(),
      customerInvoiceRef: z.string(),
    })
    .transform((v) => ({
      orderId,
      line,
      qty: typedNumber(v.qty),
      vin: v.vin,
      mileageAtInstall: typedNumber(v.mileageAtInstall),
      mileageAtFailure: typedNumber(v.mileageAtFailure),
      installedOn: v.installedOn,
      failedOn: v.failedOn,
      installedBy: v.installedBy as Installer,
      description: v.description,
      ...(v.customerInvoiceRef.trim() ? { customerInvoiceRef: v.customerInvoiceRef } : {}),
    }))
    .pipe(claimInputSchema);

/** Claim a failed part of one line under its warranty: the vehicle, mileages, dates, what happened. */
export function ClaimForm({
  orderId,
  line,
  onClose,
}: {
  orderId: string;
  line: ClaimableLine;
  onClose(): void;
}) {
  const file = useFileClaim();
  const addPhotos = useAddClaimPhotos();
  // The photos go once the claim is filed (the claim's own upload), checked as they are chosen.
  const [photos, setPhotos] = useState<File[]>([]);
  const [photoProblem, setPhotoProblem] = useState<string>();
  const { field, submitWith, formError } = useApiForm(claimFormSchema(orderId, line.line), {
    defaultValues: {
      qty: line.claimable === 1 ? "1" : "",
      vin: "",
      mileageAtInstall: "",
      mileageAtFailure: "",
      installedOn: "",
      failedOn: "",
      installedBy: "",
      description: "",
      customerInvoiceRef: "",
    },
  });
  const send = async (input: z.output<ReturnType<typeof claimFormSchema>>) => {
    if (photoProblem) return;
    const claim = await file.mutateAsync(input);
    if (photos.length > 0) {
      try {
        await addPhotos.mutateAsync({ claimId: claim.id, files: photos });
      } catch (err) {
        // The claim stands; the photos can be added again on the claim.
        notify.error(
          `Your claim ${claim.number} was filed, but the photos were not added: ${(err as Error).message}`,
        );
        onClose();
        return;
      }
    }
    notify.success(`Warranty claim ${claim.number} filed: we email you our answer`);
    onClose();
  };
  return (
    <FormDialog
      title={`Claim warranty: ${line.productName}`}
      named
      onClose={onClose}
      onSubmit={submitWith(send)}
      busy={file.isPending || addPhotos.isPending}
      formError={formError}
      submitLabel="File the claim"
    >
      <p className="text-sm text-base-content/80">
        {line.partNumber && `${line.partNumber} · `}
        {line.claimable === 1 ? "1 unit" : `up to ${line.claimable} units`} can be claimed. Keep the
        part: if we need it back, we tell you where to send it.
      </p>
      <FormField
        label="How many failed"
        {...wholeNumber(1)}
        max={line.claimable}
        {...field("qty")}
      />
      <FormField
        label="Vehicle identification number (VIN)"
        autoComplete="off"
        spellCheck={false}
        maxLength={32}
        hint="17 characters, on the windscreen or the registration document"
        {...field("vin")}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField
          label="Mileage at installation"
          {...wholeNumber(0)}
          {...field("mileageAtInstall")}
        />
        <FormField label="Mileage at failure" {...wholeNumber(0)} {...field("mileageAtFailure")} />
        <FormField label="Installation date" type="date" {...field("installedOn")} />
        <FormField label="Failure date" type="date" {...field("failedOn")} />
      </div>
      <SelectField id="claim-installed-by" label="Who fitted the part" {...field("installedBy")}>
        <option value="">Choose who fitted it</option>
        {installers.map((i) => (
          <option key={i} value={i}>
            {installerLabels[i]}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        id="claim-description"
        label="What happened"
        rows={4}
        maxLength={MAX_CLAIM_TEXT}
        {...field("description")}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor="claim-photos" className="text-sm font-medium">
          Photos of the part (optional, up to {MAX_CLAIM_PHOTOS})
        </label>
        <input
          id="claim-photos"
          type="file"
          accept={PHOTO_ACCEPT}
          multiple
          className="file-input file-input-bordered w-full"
          aria-invalid={photoProblem ? true : undefined}
          onChange={(e) => {
            const chosen = [...(e.currentTarget.files ?? [])];
            setPhotos(chosen);
            setPhotoProblem(checkPhotoFiles(chosen, MAX_CLAIM_PHOTOS, warrantyMessages));
          }}
        />
        {photoProblem && <p className="text-sm text-error">{photoProblem}</p>}
      </div>
      <FormField
        label="Your customer's invoice number (garages, optional)"
        maxLength={60}
        {...field("customerInvoiceRef")}
      />
    </FormDialog>
  );
}
