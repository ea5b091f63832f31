import { useId, useState, type ChangeEvent } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import {
  imageMimeTypes,
  isImageLink,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_LINK_LENGTH,
} from "#contract/products";
import { FieldFrame } from "../../../components/form-field";
import { useUploadProductImage } from "../api/upload-product-image";

/** What the picture needs of its form (Add Product's, the edit form's): its `img` field. */
interface ImageForm {
  register(name: "img"): UseFormRegisterReturn;
  setValue(name: "img", url: string, options: { shouldValidate: true; shouldDirty: true }): void;
  setError(name: "img", error: { message: string }): void;
}

interface ImageFieldProps {
  /** The form's own react-hook-form functions: an uploaded image's url goes into `img`. */
  form: ImageForm;
  /** Its current value, to know whether the preview still shows it. */
  value: string;
  error?: string;
}

const canPreview = isImageLink;

/**
 * The product picture: a link typed in, or a file uploaded at once (the server answers the link
 * it is served at). The preview follows the link once it is settled, not on every key press.
 */
export function ImageField({ form, value, error }: ImageFieldProps) {
  const field = form.register("img");
  const onUploaded = (url: string) =>
    form.setValue("img", url, { shouldValidate: true, shouldDirty: true });
  const onUploadFailed = (message: string) => form.setError("img", { message });
  const upload = useUploadProductImage();
  const [settled, setSettled] = useState(() => value.trim());
  const fileId = useId();
  const current = value.trim();
  const showPreview = current !== "" && current === settled && canPreview(current);

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    // Cleared so that choosing the same file again is a change too.
    input.value = "";
    if (file.size > MAX_IMAGE_BYTES) {
      onUploadFailed("The image must be 2 MiB or smaller");
      return;
    }
    upload.mutate(file, {
      onSuccess: ({ url }) => {
        setSettled(url);
        onUploaded(url);
      },
      onError: (err) => onUploadFailed(err.message),
    });
  };

  return (
    <div className="flex flex-col gap-2">
      <FieldFrame id={field.name} label="Image link" error={error} linkHint={false}>
        {(aria) => (
          <input
            {...aria}
            type="text"
            inputMode="url"
            maxLength={MAX_IMAGE_LINK_LENGTH}
            placeholder="https://… or upload an image below"
            className={`input input-bordered w-full ${error ? "input-error" : ""}`}
            {...field}
            onBlur={(e) => {
              setSettled(e.currentTarget.value.trim());
              return field.onBlur(e);
            }}
          />
        )}
      </FieldFrame>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={fileId} className="text-sm font-medium">
            Or upload an image
          </label>
          <input
            id={fileId}
            type="file"
            accept={imageMimeTypes.join(",")}
            className="file-input file-input-bordered w-full max-w-xs"
            disabled={upload.isPending}
            onChange={onFile}
          />
          <p className="text-xs text-base-content/70">PNG, JPEG, WebP or GIF, up to 2 MiB</p>
        </div>
        {upload.isPending && (
          <span role="status" className="flex items-center gap-2 text-sm">
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            Uploading…
          </span>
        )}
        {showPreview && (
          <img
            src={current}
            alt="Image preview"
            width="96"
            height="72"
            className="h-18 w-24 rounded-box border border-base-300 bg-base-200 object-cover"
          />
        )}
      </div>
    </div>
  );
}
