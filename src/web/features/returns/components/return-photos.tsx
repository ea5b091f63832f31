import { MAX_IMAGE_BYTES } from "#contract/products";
import {
  MAX_RETURN_PHOTOS,
  returnMessages,
  returnPhotoTypes,
  type ReturnPhoto,
} from "#contract/returns";

/** What the file input accepts: the types the server takes (it checks the bytes again). */
export const PHOTO_ACCEPT = returnPhotoTypes.join(",");

/**
 * The chosen files checked before anything is sent, with the server's own messages; undefined
 * when they may go. `left`: how many more the return takes.
 */
export function checkPhotos(files: File[], left = MAX_RETURN_PHOTOS): string | undefined {
  if (files.length > left) return returnMessages.tooManyPhotos(left);
  for (const file of files) {
    if (!(returnPhotoTypes as readonly string[]).includes(file.type)) {
      return returnMessages.photoType(file.name);
    }
    if (file.size > MAX_IMAGE_BYTES) return returnMessages.photoTooLarge(MAX_IMAGE_BYTES);
  }
  return undefined;
}

/** A return's photos as thumbnails; each opens the full photo in a new tab. */
export function ReturnPhotos({ photos }: { photos: ReturnPhoto[] }) {
  if (photos.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-2" aria-label="Photos">
      {photos.map((p, i) => (
        <li key={p.id}>
          <a href={p.url} target="_blank" rel="noopener noreferrer" className="block">
            <img
              src={p.url}
              alt={`Photo ${i + 1} of the return`}
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
