import { useWatch } from "react-hook-form";
import { useApiForm } from "../../../lib/use-api-form";
import { useUnsavedChangesWarning } from "../../../lib/use-unsaved-changes";
import { MAX_PRODUCT_NAME_LENGTH, productCreateSchema, productMessages } from "#contract/products";
import { FormField, SubmitButton, wholeNumber } from "../../../components/form-field";
import { useCreateProduct } from "../api/create-product";
import { ImageField } from "./image-field";
import { ProductDescriptionField } from "./product-description-field";
import { ProductNumberFields } from "./product-number-fields";
import { ProductDimensionFields } from "./product-dimension-fields";
import { CatalogFields } from "./catalog-fields";

/** Add Product (admins): every field required; the creator is whoever is signed in. */
export function AddProductForm() {
  const create = useCreateProduct();
  const {
    control,
    register,
    field,
    setError,
    setValue,
    addWith,
    formState: { errors, isDirty },
  } = useApiForm(productCreateSchema, {
    // Number fields start empty: a preset 0 would be a price or stock nobody entered.
    defaultValues: {
      name: "",
      partNumber: "",
      shortDescription: "",
      img: "",
      crossReferences: [],
      retailMinimum: 1,
      packSize: 1,
    },
  });
  const unsaved = useUnsavedChangesWarning(isDirty);
  const img = useWatch({ control, name: "img" });
  // Empty number inputs read as NaN, which the schema reports as "… is Required".

  // The server checks the same rules; should it disagree, the hook says why beside the field.
  const onSubmit = addWith(create.mutateAsync, productMessages);

  return (
    <form noValidate className="card border border-base-300 bg-base-100" onSubmit={onSubmit}>
      <div className="card-body grid gap-4 md:grid-cols-2">
        <div className="md:col-span-2">
          <FormField label="Name" maxLength={MAX_PRODUCT_NAME_LENGTH} {...field("name")} />
        </div>
        <CatalogFields control={control} register={register} errors={errors} />
        <ProductNumberFields register={register} errors={errors} />
        <FormField
          label="Weight (g, optional)"
          {...wholeNumber(0)}
          hint="Weight-band shipping charges by it; empty is 0 g"
          error={errors.weightGrams?.message}
          {...register("weightGrams", {
            setValueAs: (typed: string) => (typed === "" ? undefined : Number(typed)),
          })}
        />
        {/* Optional: all three, or none. */}
        <ProductDimensionFields register={register} errors={errors} />
        <div className="md:col-span-2">
          <ProductDescriptionField
            field={register("shortDescription")}
            error={errors.shortDescription?.message}
          />
        </div>
        <div className="md:col-span-2">
          <ImageField
            form={{ register, setValue, setError }}
            value={img}
            error={errors.img?.message}
          />
        </div>
        <div className="md:col-span-2">
          <SubmitButton busy={create.isPending}>Add Product</SubmitButton>
        </div>
        {create.isError && (
          <p role="alert" className="text-error md:col-span-2">
            {productMessages.failed}
          </p>
        )}
      </div>
      {unsaved.dialog}
    </form>
  );
}
