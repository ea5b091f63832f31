import { MAX_RETURN_PHOTOS, returnMessages, type ReturnPhoto } from "#contract/returns";
import { checkPhotoFiles, PhotoThumbnails } from "../../../components/private-photos";

export { PHOTO_ACCEPT } from "../../../components/private-photos";

/**
 * The chosen files checked before anything is sent, with the server's own messages; undefined
 * when they may go. `left`: how many more the return takes.
 */
export const checkPhotos = (files: File[], left = MAX_RETURN_PHOTOS) =>
  checkPhotoFiles(files, left, returnMessages);

/** A return's photos as thumbnails; each opens the full photo in a new tab. */
export const ReturnPhotos = ({ photos }: { photos: ReturnPhoto[] }) => (
  <PhotoThumbnails photos={photos} of="the return" />
);
