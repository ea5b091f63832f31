import { useMutation } from "@tanstack/react-query";
import type { ApiError as ApiErrorBody } from "../../../../contract/common";
import type { ImageUploaded } from "../../../../contract/products";
import { ApiError } from "../../../lib/api-client";

/**
 * Sends one image as multipart/form-data. Not through `apiSend`, which sends JSON: the browser
 * must set the multipart content type itself, boundary included.
 */
export async function uploadProductImage(file: File): Promise<ImageUploaded> {
  const body = new FormData();
  body.append("image", file);
  const res = await fetch("/api/products/images", {
    method: "POST",
    body,
    credentials: "same-origin",
  });
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const err = json as Partial<ApiErrorBody> | undefined;
    throw new ApiError(
      res.status,
      typeof err?.error === "string" ? err.error : "http_error",
      typeof err?.message === "string" ? err.message : `The server answered ${res.status}`,
      err?.fields,
    );
  }
  return json as ImageUploaded;
}

export function useUploadProductImage() {
  return useMutation({ mutationFn: uploadProductImage });
}
