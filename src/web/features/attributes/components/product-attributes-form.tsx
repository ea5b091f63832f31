import { useMemo } from "react";
import { z } from "zod";
import {
  attributeMessages,
  MAX_ATTRIBUTE_TEXT,
  type AttributeDefinition,
  type ProductAttribute,
} from "#contract/attributes";
import type { ProductCategory } from "#contract/constants";
import { paths } from "#contract/paths";
import { FieldFrame, FormError } from "../../../components/form-field";
import { Link } from "../../../components/link";
import { Spinner } from "../../../components/spinner";
import { QueryError } from "../../../components/query-error";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useAttributeDefinitions, useSetProductAttributes } from "../api/attributes";
import { SelectOptions } from "../../../components/select-options";

/** A number as the server takes it: "280", "11.5", "-0.25" (a comma as the decimal mark too). */
const NUMBER = /^-?\d{1,12}([.,]\d{1,6})?$/;

/** One field per definition, keyed by its id (the server names a refused value by it). */
export const valuesSchemaFor = (defs: AttributeDefinition[]) =>
  z.object(
    Object.fromEntries(
      defs.map((d) => {
        const value = z.string().trim();
        const field =
          d.kind === "number"
            ? value.refine((v) => v === "" || NUMBER.test(v), attributeMessages.notANumber(d.name))
            : d.kind === "choice"
              ? value.refine(
                  (v) => v === "" || d.choices.includes(v),
                  attributeMessages.notAChoice(d.name, d.choices),
                )
              : value.max(MAX_ATTRIBUTE_TEXT, attributeMessages.text(d.name));
        return [d.id, field];
      }),
    ),
  );

/** The product's values as the form's fields: by the definition's name, in any case. */
export function valuesOf(
  defs: AttributeDefinition[],
  attributes: ProductAttribute[],
): Record<string, string> {
  const byName = new Map(attributes.map((a) => [a.name.toLowerCase(), a.value]));
  return Object.fromEntries(defs.map((d) => [d.id, byName.get(d.name.toLowerCase()) ?? ""]));
}

/**
 * A product's attributes on its edit page: one field per attribute of its category (a number
 * with its unit, a choice, a text); an empty field is no value. Saved on its own.
 */
export function ProductAttributesForm({
  product,
}: {
  product: { _id: string; category: ProductCategory; attributes: ProductAttribute[] };
}) {
  const defs = useAttributeDefinitions(product.category);
  return (
    <section
      aria-labelledby="product-attributes"
      className="flex flex-col gap-3 rounded-box border border-base-300 p-4"
    >
      <h3 id="product-attributes" className="font-semibold">
        Attributes
      </h3>
      {defs.isPending ? (
        <Spinner label="Loading the attributes" />
      ) : defs.error ? (
        <QueryError error={defs.error} />
      ) : defs.data.length === 0 ? (
        <p className="text-sm text-base-content/75">
          {product.category} parts have no attributes yet. Define them on the{" "}
          <Link to={`${paths.attributes}?category=${encodeURIComponent(product.category)}`}>
            Attributes
          </Link>{" "}
          page.
        </p>
      ) : (
        <ValuesForm productId={product._id} defs={defs.data} attributes={product.attributes} />
      )}
    </section>
  );
}

function ValuesForm({
  productId,
  defs,
  attributes,
}: {
  productId: string;
  defs: AttributeDefinition[];
  attributes: ProductAttribute[];
}) {
  const save = useSetProductAttributes(productId);
  const schema = useMemo(() => valuesSchemaFor(defs), [defs]);
  const { register, reset, submitWith, formError, formState } = useApiForm(schema, {
    defaultValues: valuesOf(defs, attributes),
  });
  const { errors } = formState;
  return (
    <form
      noValidate
      aria-label="Attributes"
      className="flex flex-col gap-3"
      onSubmit={submitWith(async (values) => {
        const answer = await save.mutateAsync({
          values: defs
            .map((d) => ({ attributeId: d.id, value: values[d.id] ?? "" }))
            .filter((v) => v.value !== ""),
        });
        reset(valuesOf(defs, answer.attributes));
        notify.success(attributeMessages.saved);
      })}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {defs.map((d) => {
          const error = errors[d.id]?.message;
          return (
            <FieldFrame
              key={d.id}
              id={`attribute-${d.id}`}
              label={d.name}
              error={error}
              linkHint={false}
            >
              {(aria) =>
                d.kind === "choice" ? (
                  <select {...aria} className="select select-bordered w-full" {...register(d.id)}>
                    <SelectOptions empty="Not given" values={d.choices} />
                  </select>
                ) : d.kind === "number" && d.unit ? (
                  <div className="join w-full">
                    <input
                      {...aria}
                      inputMode="decimal"
                      className={`input input-bordered join-item w-full ${error ? "input-error" : ""}`}
                      {...register(d.id)}
                    />
                    <span className="join-item flex items-center border border-base-300 bg-base-200 px-3 text-sm">
                      {d.unit}
                    </span>
                  </div>
                ) : (
                  <input
                    {...aria}
                    inputMode={d.kind === "number" ? "decimal" : undefined}
                    className={`input input-bordered w-full ${error ? "input-error" : ""}`}
                    {...register(d.id)}
                  />
                )
              }
            </FieldFrame>
          );
        })}
      </div>
      <FormError message={formError} />
      <button type="submit" className="btn btn-primary self-start" disabled={save.isPending}>
        Save attributes
      </button>
    </form>
  );
}
