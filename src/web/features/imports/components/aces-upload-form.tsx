import { z } from "zod";
import { importWords } from "#contract/imports";
import { FormError } from "../../../components/form-field";
import { useApiForm } from "../../../lib/use-api-form";
import { useUploadAces } from "../api/imports";

/** The form's one field: the file (an ACES XML file). */
const uploadSchema = z.object({
  file: z
    .custom<FileList | undefined>()
    .refine((files) => (files?.[0]?.size ?? 0) > 0, importWords.chooseFile),
});

/**
 * Uploads an ACES file to be checked (docs/imports.md): the server counts what it holds and what
 * importing it would change; nothing is imported until the admin says so.
 */
export function AcesUploadForm({ onUploaded }: { onUploaded: (id: string) => void }) {
  const upload = useUploadAces();
  const { register, submitWith, formState, formError, reset } = useApiForm(uploadSchema, {
    defaultValues: { file: undefined },
  });
  const fieldError = formState.errors.file?.message;
  return (
    <form
      noValidate
      aria-label="Upload an ACES file"
      className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4"
      onSubmit={submitWith(async ({ file }) => {
        const record = await upload.mutateAsync(file!.item(0)!);
        reset();
        onUploaded(record.id);
      })}
    >
      <h2 className="text-lg font-semibold">Upload an ACES file</h2>
      <p className="text-sm text-base-content/75">
        An ACES 4.x XML file of one brand&apos;s applications. It is checked first: you see what it
        holds and what it would change before anything is imported. Importing replaces the fitment
        of the parts it names; other parts keep theirs.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex max-w-full flex-col gap-1 text-sm font-medium">
          ACES file
          <input
            type="file"
            accept=".xml,application/xml,text/xml"
            className={`file-input max-w-full ${fieldError ? "file-input-error" : ""}`}
            aria-invalid={fieldError ? true : undefined}
            {...register("file")}
          />
        </label>
        <button type="submit" className="btn btn-primary" disabled={upload.isPending}>
          {upload.isPending && <span className="loading loading-spinner loading-sm" />}
          Check file
        </button>
      </div>
      <FormError message={fieldError ?? formError} />
    </form>
  );
}
