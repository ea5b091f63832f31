import { and, asc, count, eq, inArray } from "drizzle-orm";
import {
  MAX_RETURN_PHOTOS,
  RETURN_PHOTO_FIELD,
  returnMessages,
  returnPhotoPath,
  type ReturnPhoto,
} from "../../contract/returns";
import type { Db, DbOrTx } from "../db/database";
import type { FileStorage } from "../storage/storage";
import { HttpError, notFound } from "../errors";
import {
  checkPhotoUploads,
  photoOfRow,
  photoRows,
  refuseBeyondMax,
  storePhotos,
  type PhotoRule,
  type PhotoUpload,
} from "../photos/private";
import { returnPhotos, returnRequests } from "./tables";
import { ownerOrAdmin, type OrderViewer as Viewer } from "../orders/service";

/** A return's photos: up to MAX_RETURN_PHOTOS, in field `photos`, said in the returns' words. */
export const returnPhotoRule: PhotoRule = {
  field: RETURN_PHOTO_FIELD,
  max: MAX_RETURN_PHOTOS,
  messages: returnMessages,
};

const toPhoto = (row: typeof returnPhotos.$inferSelect): ReturnPhoto => ({
  id: row.id,
  contentType: row.contentType,
  size: row.sizeBytes,
  url: returnPhotoPath(row.returnId, row.id),
  createdAt: row.createdAt.toISOString(),
});

/** Photos of these returns, oldest first, by return id. */
export async function photosOfReturns(
  tx: DbOrTx,
  returnIds: string[],
): Promise<Map<string, ReturnPhoto[]>> {
  const byReturn = new Map<string, ReturnPhoto[]>();
  if (returnIds.length === 0) return byReturn;
  const rows = await tx
    .select()
    .from(returnPhotos)
    .where(inArray(returnPhotos.returnId, returnIds))
    .orderBy(asc(returnPhotos.createdAt), asc(returnPhotos.id));
  for (const row of rows) {
    byReturn.set(row.returnId, [...(byReturn.get(row.returnId) ?? []), toPhoto(row)]);
  }
  return byReturn;
}

/**
 * The customer's photos of their returns: files in the storage's private `return-photos` area
 * (DATA_DIR/return-photos, or the bucket; never served statically), a row each in return_photos.
 * Shown only to the return's customer and admins.
 */
export function createReturnPhotoService(db: Db, storage: FileStorage) {
  /** The return, when the viewer may see it (its customer or an admin); otherwise 404. */
  async function visibleReturn(tx: DbOrTx, id: string, viewer: Viewer, lock = false) {
    const q = tx.select().from(returnRequests).where(eq(returnRequests.id, id));
    const [row] = lock ? await q.for("update") : await q;
    if (!row || !ownerOrAdmin(row.userId, viewer)) {
      throw notFound("Return not found");
    }
    return row;
  }

  return {
    /**
     * The return's customer adds photos while it awaits the store's answer (`requested`), up to
     * MAX_RETURN_PHOTOS in all. Every photo is checked (type by its bytes, size) before any is
     * written; a refusal or a failed write (a full disk) leaves no file and no row behind.
     */
    async add(returnId: string, viewer: Viewer, uploads: PhotoUpload[]): Promise<ReturnPhoto[]> {
      const checked = checkPhotoUploads(uploads, returnPhotoRule);
      return storePhotos(storage, "return-photos", checked, (write) =>
        db.transaction(async (tx) => {
          // Locked: two uploads at once cannot pass the count together.
          const ret = await visibleReturn(tx, returnId, viewer, true);
          if (ret.userId !== viewer.id) throw notFound("Return not found");
          if (ret.status !== "requested") {
            throw new HttpError(409, "return_closed", returnMessages.photosClosed);
          }
          const [had] = await tx
            .select({ n: count() })
            .from(returnPhotos)
            .where(eq(returnPhotos.returnId, returnId));
          const at = Date.now();
          refuseBeyondMax(returnPhotoRule, checked, had?.n ?? 0);
          await write();
          const rows = await tx
            .insert(returnPhotos)
            .values(photoRows(checked, at).map((row) => ({ ...row, returnId })))
            .returning();
          return rows.map(toPhoto);
        }),
      );
    },

    /** One photo (streamed) and its type, for the return's customer or an admin. */
    async read(returnId: string, photoId: string, viewer: Viewer) {
      await visibleReturn(db, returnId, viewer);
      const [row] = await db
        .select()
        .from(returnPhotos)
        .where(and(eq(returnPhotos.id, photoId), eq(returnPhotos.returnId, returnId)));
      return photoOfRow(storage, "return-photos", row);
    },
  };
}

export type ReturnPhotoService = ReturnType<typeof createReturnPhotoService>;
