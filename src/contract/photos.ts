import { z } from "zod";

// Photos a customer attaches to what they ask of the store (a return, a warranty claim: docs/
// returns.md and docs/warranty.md "Photos"): the image types taken, a photo as answers carry it
// and the words of a photo refused.

/** The image types a photo may be. */
export const photoTypes = ["image/jpeg", "image/png", "image/webp"] as const;

/** A photo as answers carry it, with its own id's schema; `url` answers only those who see it. */
export const photoSchema = <Id extends z.ZodType<string>>(id: Id) =>
  z.object({
    id,
    contentType: z.enum(photoTypes),
    size: z.number().int(),
    url: z.string(),
    createdAt: z.iso.datetime({ offset: true }),
  });

/**
 * The words of a photo refused by a `noun` ("return", "claim") that takes `max` photos, sent in
 * the multipart field `field`.
 */
export const photoMessages = (noun: string, max: number, field: string) => ({
  noPhoto: `Choose a photo to send (multipart field "${field}")`,
  photoType: (name: string) => `${name}: a photo must be a JPEG, PNG or WebP image`,
  photoTooLarge: (bytes: number) => `Each photo must be ${bytes / 1024 / 1024} MiB or smaller`,
  tooManyPhotos: (left: number) =>
    left === 0
      ? `This ${noun} has ${max} photos already: no more can be added`
      : `At most ${max} photos per ${noun}: ${left} more can be added`,
});
