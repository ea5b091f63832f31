import { coreDepositInputSchema, type CoreDepositInput } from "#contract/core-charges";
import type { ProductDetail } from "#contract/products";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useSetCoreDeposit } from "../api/set-core-deposit";

/**
 * Admin: a remanufacturable part's core deposit (docs/core-charges.md), saved on its own: it is
 * charged beside the price on new orders and refunded when the customer sends the old part back.
 */
export function CoreDepositForm({ product }: { product: ProductDetail }) {
  const save = useSetCoreDeposit(product._id);
  const form = useApiForm(coreDepositInputSchema, {
    defaultValues: { coreDeposit: product.coreDeposit },
  });
  const { register, setValue, clearErrors, submitWith, showError, setFormError, formError } = form;
  const error = form.formState.errors.coreDeposit?.message ?? formError;
  const send = async (input: CoreDepositInput) => {
    const saved = await save.mutateAsync(input);
    if (saved.coreDeposit === null) setValue("coreDeposit", null);
    notify.success(
      saved.coreDeposit === null
        ? `${product.name} has no core deposit now`
        : `The core deposit of ${product.name} is saved`,
    );
  };

  return (
    <form
      noValidate
      className="flex flex-wrap items-end gap-2 rounded-box border border-base-300 p-3"
      onSubmit={submitWith(send)}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor="core-deposit" className="text-sm font-medium">
          Core deposit per unit (remanufactured parts)
        </label>
        <input
          id="core-deposit"
          type="number"
          inputMode="decimal"
          min={0.01}
          step={0.01}
          placeholder="None"
          className={`input input-bordered w-40 ${error ? "input-error" : ""}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "core-deposit-error" : undefined}
          {...register("coreDeposit", {
            setValueAs: (typed: string | number | null) =>
              typed === "" || typed === null ? null : Number(typed),
          })}
        />
      </div>
      <button type="submit" className="btn btn-outline" disabled={save.isPending}>
        Save deposit
      </button>
      {product.coreDeposit !== null && (
        <button
          type="button"
          className="btn btn-ghost"
          disabled={save.isPending}
          onClick={() => {
            clearErrors();
            setFormError(undefined);
            send({ coreDeposit: null }).catch(showError);
          }}
        >
          Remove deposit
        </button>
      )}
      {error && (
        <p id="core-deposit-error" role="alert" className="w-full text-sm text-error">
          {error}
        </p>
      )}
    </form>
  );
}
