import { useEffect, useMemo, type ReactNode } from "react";
import { useUnsavedChangesWarning } from "../../../lib/use-unsaved-changes";
import { useWatch } from "react-hook-form";
import { FormError, SubmitButton } from "../../../components/form-field";
import { useApiForm } from "../../../lib/use-api-form";
import { notify } from "../../../lib/notify";
import type { z } from "zod";
import {
  bothPackFieldsValid,
  bothStockFieldsValid,
  dimensionFields,
  dimensionsTogether,
  dimensionsValid,
  minimumInPacks,
  productFieldMessages,
  productFieldsSchema,
  type ProductDetail,
  type ProductUpdate,
} from "#contract/products";
import { useUpdateProduct } from "../api/update-product";
import { productQueryOptions } from "../api/get-product";
import { useQuery } from "@tanstack/react-query";
import { FormField, wholeNumber } from "../../../components/form-field";
import { Spinner } from "../../../components/spinner";
import { ImageField } from "./image-field";
import { ProductDescriptionField } from "./product-description-field";
import { ProductNumberFields } from "./product-number-fields";
import { ProductDimensionFields } from "./product-dimension-fields";
import { CatalogFields } from "./catalog-fields";
import { CoreDepositForm } from "./core-deposit-form";
import { QuantityBreaksForm } from "./quantity-breaks-form";

const editableSchema = productFieldsSchema.pick({
  partNumber: true,
  category: true,
  crossReferences: true,
  price: true,
  availableQuantity: true,
  minimumOrder: true,
  retailMinimum: true,
  packSize: true,
  warranty: true,
  weightGrams: true,
  lengthMm: true,
  widthMm: true,
  heightMm: true,
  shortDescription: true,
  img: true,
});
type Editable = z.infer<typeof editableSchema>;
const editableNames = Object.keys(editableSchema.shape) as (keyof Editable)[];

/**
 * Same rule as the server: minimum order <= stock on the edited product, checked only when the
 * edit changes one of the two (orders may have left stock below the minimum meanwhile); the
 * minimum a whole number of packs when the edit changes either. Length, width and height: all
 * three, or none.
 */
const schemaFor = (product: ProductDetail) =>
  editableSchema
    .refine(
      (v) =>
        (v.minimumOrder === product.minimumOrder &&
          v.availableQuantity === product.availableQuantity) ||
        v.minimumOrder <= v.availableQuantity,
      {
        message: productFieldMessages.minimumAboveStock,
        path: ["minimumOrder"],
        when: (payload) => bothStockFieldsValid(payload.value),
      },
    )
    // The minimum in whole packs, checked (as the server does) when the edit changes either.
    .superRefine(
      (v, ctx) => {
        if (v.minimumOrder !== product.minimumOrder || v.packSize !== product.packSize) {
          minimumInPacks(v, ctx);
        }
      },
      { when: (payload) => bothPackFieldsValid(payload.value) },
    )
    .superRefine(dimensionsTogether, { when: dimensionsValid });

/**
 * The fields whose value differs from the product's: a PATCH sends only what changed. A new stock
 * goes with the stock the form was opened with, so the server refuses it if orders changed it.
 * Length, width and height go together: one changed sends all three (null: removed).
 */
export function changesOf(product: ProductDetail, values: Editable): ProductUpdate {
  const changes: Record<string, unknown> = {};
  for (const name of editableNames) {
    // Cross-references are a list: compared by value, sent whole when any row changed.
    const value = name === "crossReferences" ? (values[name] ?? []) : values[name];
    if (JSON.stringify(value) !== JSON.stringify(product[name])) {
      changes[name] = values[name];
    }
  }
  if ("availableQuantity" in changes) changes.availableQuantityWas = product.availableQuantity;
  if (dimensionFields.some((name) => name in changes)) {
    for (const name of dimensionFields) changes[name] = values[name] ?? null;
  }
  return changes as ProductUpdate;
}

/**
 * Edit a product's part number, category, cross-references, price, stock, minimum order,
 * warranty, shipping weight, dimensions, description and image.
 */
export function EditProductForm({
  product,
  onDone,
  onDirtyChange,
}: {
  product: ProductDetail;
  onDone(): void;
  /** Told whether the form holds unsaved edits (the dialog asks before closing then). */
  onDirtyChange?(dirty: boolean): void;
}) {
  const update = useUpdateProduct();
  const schema = useMemo(() => schemaFor(product), [product]);
  const {
    control,
    register,
    field,
    setError,
    setValue,
    submitWith,
    formState: { errors, isDirty },
  } = useApiForm(schema, {
    defaultValues: {
      partNumber: product.partNumber,
      category: product.category,
      crossReferences: product.crossReferences,
      price: product.price,
      availableQuantity: product.availableQuantity,
      minimumOrder: product.minimumOrder,
      retailMinimum: product.retailMinimum,
      packSize: product.packSize,
      warranty: product.warranty,
      weightGrams: product.weightGrams,
      lengthMm: product.lengthMm,
      widthMm: product.widthMm,
      heightMm: product.heightMm,
      shortDescription: product.shortDescription,
      img: product.img,
    },
  });
  const unsaved = useUnsavedChangesWarning(isDirty);
  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);
  const img = useWatch({ control, name: "img" });

  const onSubmit = submitWith(async (values) => {
    const changes = changesOf(product, values);
    if (Object.keys(changes).length > 0) {
      const saved = await update.mutateAsync({ id: product._id, changes });
      notify.success(`${saved.name} is updated`);
    }
    onDone();
  });

  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={onSubmit}>
      <div className="grid gap-4 sm:grid-cols-2">
        <CatalogFields control={control} register={register} errors={errors} />
        <ProductNumberFields register={register} errors={errors} />
        <FormField
          label="Weight (g)"
          {...wholeNumber(0)}
          {...field("weightGrams", { valueAsNumber: true })}
        />
        {/* All three emptied remove the dimensions. */}
        <ProductDimensionFields register={register} errors={errors} />
      </div>
      <ProductDescriptionField
        field={register("shortDescription")}
        error={errors.shortDescription?.message}
      />
      <ImageField form={{ register, setValue, setError }} value={img} error={errors.img?.message} />
      {/* The refusal is also said here when it names a field, as this form always has. */}
      <FormError message={update.error?.message} className="text-error" />
      <div className="modal-action">
        <button
          type="button"
          className="btn"
          onClick={() => void unsaved.confirmLeaving().then((leave) => leave && onDone())}
          disabled={update.isPending}
        >
          Cancel
        </button>
        <SubmitButton busy={update.isPending} disabled={!isDirty}>
          Save changes
        </SubmitButton>
      </div>
      {unsaved.dialog}
    </form>
  );
}

/**
 * The edit form for a product of a list: it reads the product again first (its cross-references
 * are not in lists, and the form must start from what is saved now).
 */
export function EditProductLoader({
  productId,
  onDone,
  onDirtyChange,
  extras,
}: {
  productId: string;
  onDone(): void;
  onDirtyChange?(dirty: boolean): void;
  /** More sections of the product, from other features (the page composes: its attributes). */
  extras?: (product: ProductDetail) => ReactNode;
}) {
  const query = useQuery({
    ...productQueryOptions(productId),
    refetchOnMount: "always",
    refetchOnWindowFocus: false,
  });
  if (query.error) {
    return (
      <p role="alert" className="text-error">
        {query.error.message}
      </p>
    );
  }
  if (!query.data || !query.isFetchedAfterMount) {
    return <Spinner label="Loading the product" />;
  }
  return (
    <div className="flex flex-col gap-4">
      <CoreDepositForm product={query.data} />
      <QuantityBreaksForm product={query.data} />
      {extras?.(query.data)}
      <EditProductForm product={query.data} onDone={onDone} onDirtyChange={onDirtyChange} />
    </div>
  );
}
