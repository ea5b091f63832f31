import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo } from "react";
import {
  UNSAVED_CHANGES_MESSAGE,
  useUnsavedChangesWarning,
} from "../../../lib/use-unsaved-changes";
import { useForm, useWatch } from "react-hook-form";
import { notify } from "../../../lib/notify";
import type { z } from "zod";
import {
  bothStockFieldsValid,
  productFieldMessages,
  productFieldsSchema,
  type Product,
  type ProductUpdate,
} from "#contract/products";
import { ApiError } from "../../../lib/api-client";
import { useUpdateProduct } from "../api/update-product";
import { ImageField } from "./image-field";
import { ProductDescriptionField } from "./product-description-field";
import { ProductNumberFields } from "./product-number-fields";

const editableSchema = productFieldsSchema.pick({
  price: true,
  availableQuantity: true,
  minimumOrder: true,
  warranty: true,
  shortDescription: true,
  img: true,
});
type Editable = z.infer<typeof editableSchema>;
const editableNames = Object.keys(editableSchema.shape) as (keyof Editable)[];

/**
 * Same rule as the server: minimum order <= stock on the edited product, checked only when the
 * edit changes one of the two (orders may have left stock below the minimum meanwhile).
 */
const schemaFor = (product: Product) =>
  editableSchema.refine(
    (v) =>
      (v.minimumOrder === product.minimumOrder &&
        v.availableQuantity === product.availableQuantity) ||
      v.minimumOrder <= v.availableQuantity,
    {
      message: productFieldMessages.minimumAboveStock,
      path: ["minimumOrder"],
      when: (payload) => bothStockFieldsValid(payload.value),
    },
  );

/**
 * The fields whose value differs from the product's: a PATCH sends only what changed. A new stock
 * goes with the stock the form was opened with, so the server refuses it if orders changed it.
 */
export function changesOf(product: Product, values: Editable): ProductUpdate {
  const changes: Record<string, unknown> = {};
  for (const name of editableNames) {
    if (values[name] !== product[name]) changes[name] = values[name];
  }
  if ("availableQuantity" in changes) changes.availableQuantityWas = product.availableQuantity;
  return changes as ProductUpdate;
}

/** Edit a product's price, stock, minimum order, warranty, description and image. */
export function EditProductForm({
  product,
  onDone,
  onDirtyChange,
}: {
  product: Product;
  onDone(): void;
  /** Told whether the form holds unsaved edits (the dialog asks before closing then). */
  onDirtyChange?(dirty: boolean): void;
}) {
  const update = useUpdateProduct();
  const schema = useMemo(() => schemaFor(product), [product]);
  const {
    control,
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isDirty },
  } = useForm<Editable>({
    resolver: zodResolver(schema),
    defaultValues: {
      price: product.price,
      availableQuantity: product.availableQuantity,
      minimumOrder: product.minimumOrder,
      warranty: product.warranty,
      shortDescription: product.shortDescription,
      img: product.img,
    },
  });
  useUnsavedChangesWarning(isDirty);
  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);
  const img = useWatch({ control, name: "img" });

  const onSubmit = handleSubmit((values) => {
    const changes = changesOf(product, values);
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    update.mutate(
      { id: product._id, changes },
      {
        onSuccess: (saved) => {
          notify.success(`${saved.name} is updated`);
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError) {
            for (const field of editableNames) {
              const message = error.fields?.[field];
              if (message) setError(field, { message });
            }
          }
        },
      },
    );
  });

  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={onSubmit}>
      <div className="grid gap-4 sm:grid-cols-2">
        <ProductNumberFields register={register} errors={errors} />
      </div>
      <ProductDescriptionField
        field={register("shortDescription")}
        error={errors.shortDescription?.message}
      />
      <ImageField
        field={register("img")}
        value={img}
        error={errors.img?.message}
        onUploaded={(url) => setValue("img", url, { shouldValidate: true, shouldDirty: true })}
        onUploadFailed={(message) => setError("img", { message })}
      />
      {update.error && (
        <p role="alert" className="text-error">
          {update.error.message}
        </p>
      )}
      <div className="modal-action">
        <button
          type="button"
          className="btn"
          onClick={() => {
            if (!isDirty || window.confirm(UNSAVED_CHANGES_MESSAGE)) onDone();
          }}
          disabled={update.isPending}
        >
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={!isDirty || update.isPending}>
          {update.isPending && <span className="loading loading-spinner loading-sm" />}
          Save changes
        </button>
      </div>
    </form>
  );
}
