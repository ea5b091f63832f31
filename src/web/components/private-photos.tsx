import { useState } from "react";
import { MAX_IMAGE_BYTES } from "#contract/products";
import { notify } from "../lib/notify";

/** The types a customer's private photo may have (the server checks the bytes again). */
const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

/** What a photo file input accepts. */
export const PHOTO_ACCEPT = PHOTO_TYPES.join(",");

/** How a record's photos say what is wrong, in the server's own words. */
export interface PhotoMessages {
  photoType: (name: string) => string;
  photoTooLarge: (max: number) => string;
  tooManyPhotos: (left: number) => string;
}

/**
 * The chosen files checked before anything is sent (a return's, a warranty claim's photos);
 * undefined when they may go. `left`: how many more the record takes.
 */
export function checkPhotoFiles(
  files: File[],
  left: number,
  messages: PhotoMessages,
): string | undefined {
  if (files.length > left) return messages.tooManyPhotos(left);
  for (const file of files) {
    if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) {
      return messages.photoType(file.name);
    }
    if (file.size > MAX_IMAGE_BYTES) return messages.photoTooLarge(MAX_IMAGE_BYTES);
  }
  return undefined;
}

/** Private photos as thumbnails, each opening the full photo in a new tab: "Photo 2 of `of`". */
export function PhotoThumbnails({
  photos,
  of,
}: {
  photos: readonly { id: string; url: string }[];
  of: string;
}) {
  if (photos.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-2" aria-label="Photos">
      {photos.map((p, i) => (
        <li key={p.id}>
          <a href={p.url} target="_blank" rel="noopener noreferrer" className="block">
            <img
              src={p.url}
              alt={`Photo ${i + 1} of ${of}`}
              width={64}
              height={64}
              loading="lazy"
              className="h-16 w-16 rounded border border-base-300 object-cover"
            />
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * A file input that adds photos to a record as soon as they are chosen: checked here first with
 * the server's words, then `send` (the record's upload); its refusal is said under the input.
 */
export function AddPhotosInput({
  left,
  messages,
  label,
  send,
}: {
  /** How many more the record takes. */
  left: number;
  messages: PhotoMessages;
  label: string;
  send(files: File[]): Promise<unknown>;
}) {
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const add = async (input: HTMLInputElement) => {
    const files = [...(input.files ?? [])];
    input.value = "";
    const refused = checkPhotoFiles(files, left, messages);
    setProblem(refused);
    if (files.length === 0 || refused) return;
    setBusy(true);
    try {
      await send(files);
      notify.success(files.length === 1 ? "Photo added" : "Photos added");
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <label className="mt-2 flex flex-col gap-1 text-sm">
        <span>{label}</span>
        <input
          type="file"
          accept={PHOTO_ACCEPT}
          multiple
          disabled={busy}
          className="file-input file-input-bordered file-input-sm w-full max-w-xs"
          onChange={(e) => void add(e.currentTarget)}
        />
      </label>
      {problem && (
        <p role="alert" className="mt-1 text-sm text-error">
          {problem}
        </p>
      )}
    </>
  );
}
