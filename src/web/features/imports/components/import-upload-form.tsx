import { z } from "zod";
import { importKinds, importWords, type ImportKind } from "#contract/imports";
import { FormError, SubmitButton } from "../../../components/form-field";
import { useApiForm } from "../../../lib/use-api-form";
import { useUploadImport } from "../api/imports";

/** The form's fields: which kind of file, and the file (an ACES or PIES XML file). */
const uploadSchema = z
  .object({
    kind: z.enum(importKinds),
    file: z.custom<FileList | undefined>(),
  })
  .superRefine(({ kind, file }, ctx) => {
    if ((file?.[0]?.size ?? 0) === 0) {
      ctx.addIssue({ code: "custom", path: ["file"], message: importWords.chooseFileOf[kind] });
    }
  });

const explained: Record<ImportKind, string> = {
  aces: "An ACES 4.x XML file of one brand's applications. Importing replaces the fitment of the parts it names and of the brand's other parts; other parts keep theirs.",
  pies: "A PIES 7.x XML file of a brand's parts: names, descriptions, list prices, attributes, package sizes and weights, interchange numbers, pictures and documents. Importing adds the new parts and updates the brand's others; nothing is deleted.",
};

/**
 * Uploads an ACES or PIES file to be checked (docs/imports.md): the server counts what it holds
 * and what importing it would change; nothing is imported until the admin says so.
 */
export function ImportUploadForm({ onUploaded }: { onUploaded: (id: string) => void }) {
  const upload = useUploadImport();
  const { register, submitWith, formState, formError, reset, watch } = useApiForm(uploadSchema, {
    defaultValues: { kind: "aces", file: undefined },
  });
  const kind = watch("kind");
  const fieldError = formState.errors.file?.message;
  const standard = kind === "pies" ? "PIES" : "ACES";
  return (
    <form
      noValidate
      aria-label="Upload a catalog data file"
      className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4"
      onSubmit={submitWith(async (values) => {
        const record = await upload.mutateAsync({ kind: values.kind, file: values.file!.item(0)! });
        reset({ kind: values.kind, file: undefined });
        onUploaded(record.id);
      })}
    >
      <h2 className="text-lg font-semibold">Upload a catalog data file</h2>
      <fieldset className="flex flex-wrap gap-x-6 gap-y-2">
        <legend className="mb-1 text-sm font-medium">Kind of file</legend>
        {importKinds.map((k) => (
          <label key={k} className="flex cursor-pointer items-center gap-2 text-sm">
            <input type="radio" className="radio radio-sm" value={k} {...register("kind")} />
            {importWords.kinds[k]}
          </label>
        ))}
      </fieldset>
      <p className="text-sm text-base-content/75">
        {explained[kind]} It is checked first: you see what it holds and what it would change before
        anything is imported.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex max-w-full flex-col gap-1 text-sm font-medium">
          {standard} file
          <input
            type="file"
            accept=".xml,application/xml,text/xml"
            className={`file-input max-w-full ${fieldError ? "file-input-error" : ""}`}
            aria-invalid={fieldError ? true : undefined}
            {...register("file")}
          />
        </label>
        <SubmitButton busy={upload.isPending}>Check file</SubmitButton>
      </div>
      <FormError message={fieldError ?? formError} />
    </form>
  );
}
