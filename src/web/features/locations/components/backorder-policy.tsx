import { z } from "zod";
import { backorderPolicySchema, type ProductStock } from "#contract/locations";
import { paths } from "#contract/paths";
import { FormField, typedNumberOrNull, wholeNumber } from "../../../components/form-field";
import { Link } from "../../../components/link";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useSaveBackorderPolicy } from "../api/locations";

/** The policy's fields as typed: the lead time empty for none. */
const policyFormSchema = z
  .object({ takes: z.boolean(), leadDays: z.string() })
  .transform((draft, ctx) => {
    const checked = backorderPolicySchema.safeParse({
      takes: draft.takes,
      leadDays: typedNumberOrNull(draft.leadDays),
    });
    for (const issue of checked.error?.issues ?? []) {
      ctx.addIssue({ code: "custom", path: issue.path.slice(0, 1), message: issue.message });
    }
    return checked.success ? checked.data : z.NEVER;
  });

/**
 * Admin: whether the product takes backorders beyond its stock on sale (docs/inventory.md
 * "Backorders"), up to its open supply or, with a lead time, without bound; and how many units
 * wait on backorder now.
 */
export function BackorderPolicy({ product }: { product: ProductStock }) {
  const save = useSaveBackorderPolicy();
  const { backorders } = product;
  const { register, field, submitWith, formError, watch } = useApiForm(policyFormSchema, {
    defaultValues: {
      takes: backorders.takes,
      leadDays: backorders.leadDays === null ? "" : String(backorders.leadDays),
    },
  });
  const send = async (policy: z.output<typeof policyFormSchema>) => {
    await save.mutateAsync({ productId: product.productId, policy });
    notify.success(
      policy.takes
        ? `${product.partNumber} takes backorders`
        : `${product.partNumber} takes no backorders`,
    );
  };
  return (
    <section aria-labelledby="backorders-heading" className="flex flex-col gap-2">
      <h2 id="backorders-heading" className="text-lg font-bold">
        Backorders
      </h2>
      <p className="text-sm" data-testid="backorders-waiting">
        {backorders.waiting === 0
          ? "No units wait on backorder."
          : `${backorders.waiting} ${backorders.waiting === 1 ? "unit waits" : "units wait"} on backorder; supply received here goes to them first, first ordered first served.`}
      </p>
      {backorders.waiting > 0 && (
        <Link
          to={`${paths.backorders}?${new URLSearchParams({ productId: product.productId })}`}
          className="link w-fit text-sm"
        >
          See the orders waiting in the backorder queue
        </Link>
      )}
      <form
        noValidate
        onSubmit={submitWith(send)}
        className="flex flex-col gap-2 sm:max-w-md"
        aria-label="Backorders"
      >
        <label className="flex cursor-pointer items-center gap-3">
          <input type="checkbox" className="checkbox checkbox-sm" {...register("takes")} />
          Take orders beyond the stock on sale
        </label>
        {watch("takes") && (
          <FormField
            label="Lead time in days (optional)"
            {...wholeNumber(1)}
            hint="Empty: only as many as the open supply brings, on its dates"
            {...field("leadDays")}
          />
        )}
        {formError && (
          <p role="alert" className="text-sm text-error">
            {formError}
          </p>
        )}
        <button type="submit" className="btn w-fit btn-primary" disabled={save.isPending}>
          Save backorders
        </button>
      </form>
    </section>
  );
}
