import { useMutation } from "@tanstack/react-query";
import type { ImageUploaded } from "#contract/products";
import { apiUpload } from "../../../lib/api-client";

export function uploadProductImage(file: File): Promise<ImageUploaded> {
  const body = new FormData();
  body.append("image", file);
  return apiUpload<ImageUploaded>("/products/images", body);
}

export function useUploadProductImage() {
  return useMutation({ mutationFn: uploadProductImage });
}
