import { useMutation } from "@tanstack/react-query";
import type { ImageUploaded } from "#contract/products";
import { apiUpload } from "../../../lib/api-client";

export const uploadProductImage = (file: File) =>
  apiUpload<ImageUploaded>("/products/images", "image", file);

export function useUploadProductImage() {
  return useMutation({ mutationFn: uploadProductImage });
}
