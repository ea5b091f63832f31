import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, useWatch, type Control, type UseFormRegister } from "react-hook-form";
import { useUnsavedChangesWarning } from "../../../lib/use-unsaved-changes";
import { notify } from "../../../lib/notify";
import {
  MAX_PRODUCT_NAME_LENGTH,
  productCreateSchema,
  productMessages,
  type ProductCreate,
} from "#contract/products";
import { FormField } from "../../../components/form-field";
import { ApiError } from "../../../lib/api-client";
import { useCreateProduct } from "../api/create-product";
import { ImageField } from "./image-field";
import { ProductDescriptionField } from "./product-description-field";
import { ProductNumberFields } from "./product-number-fields";
import { CatalogFields, type CatalogValues } from "./catalog-fields";

const fieldNames = [
  "partNumber",
  "category",
  "name",
  "price",
  "minimumOrder",
  "availableQuantity",
  "warranty",
  "shortDescription",
  "img",
] as const satisfies readonly (keyof ProductCreate)[];

/** Add Product (admins): every field required; the creator is whoever is signed in. */
export function AddProductForm() {
  const create = useCreateProduct();
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { errors, isDirty },
  } = useForm<ProductCreate>({
    resolver: zodResolver(productCreateSchema),
    // Number fields start empty: a preset 0 would be a price or stock nobody entered.
    defaultValues: { name: "", partNumber: "", shortDescription: "", img: "", crossReferences: [] },
  });
  useUnsavedChangesWarning(isDirty);
  const img = useWatch({ control, name: "img" });
  // Empty number inputs read as NaN, which the schema reports as "… is Required".

  const onSubmit = handleSubmit((input) =>
    create.mutate(input, {
      onSuccess: () => {
        reset();
        notify.success(productMessages.added);
      },
      onError: (error) => {
        notify.error(productMessages.failed);
        // The server checks the same rules; should it disagree, show why beside the field.
        if (error instanceof ApiError) {
          for (const field of fieldNames) {
            const message = error.fields?.[field];
            if (message) setError(field, { message });
          }
        }
      },
    }),
  );

  return (
    <form noValidate className="card border border-base-300 bg-base-100" onSubmit={onSubmit}>
      <div className="card-body grid gap-4 md:grid-cols-2">
        <div className="md:col-span-2">
          <FormField
            label="Name"
            maxLength={MAX_PRODUCT_NAME_LENGTH}
            error={errors.name?.message}
            {...register("name")}
          />
        </div>
        <CatalogFields
          control={control as unknown as Control<CatalogValues>}
          register={register as unknown as UseFormRegister<CatalogValues>}
          errors={errors}
        />
        <ProductNumberFields register={register} errors={errors} />
        <div className="md:col-span-2">
          <ProductDescriptionField
            field={register("shortDescription")}
            error={errors.shortDescription?.message}
          />
        </div>
        <div className="md:col-span-2">
          <ImageField
            field={register("img")}
            value={img}
            error={errors.img?.message}
            onUploaded={(url) => setValue("img", url, { shouldValidate: true, shouldDirty: true })}
            onUploadFailed={(message) => setError("img", { message })}
          />
        </div>
        <div className="md:col-span-2">
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending && <span className="loading loading-spinner loading-sm" />}
            Add Product
          </button>
        </div>
        {create.isError && (
          <p role="alert" className="text-error md:col-span-2">
            {productMessages.failed}
          </p>
        )}
      </div>
    </form>
  );
}
