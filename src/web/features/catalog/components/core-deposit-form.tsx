import { useState } from "react";
import { coreDepositInputSchema } from "#contract/core-charges";
import type { ProductDetail } from "#contract/products";
import { notify } from "../../../lib/notify";
import { useSetCoreDeposit } from "../api/set-core-deposit";

/**
 * Admin: a remanufacturable part's core deposit (docs/core-charges.md), saved on its own: it is
 * charged beside the price on new orders and refunded when the customer sends the old part back.
 */
export function CoreDepositForm({ product }: { product: ProductDetail }) {
  const save = useSetCoreDeposit(product._id);
  const [value, setValue] = useState(
    product.coreDeposit === null ? "" : String(product.coreDeposit),
  );
  const [error, setError] = useState<string>();

  const submit = (clear: boolean) => {
    setError(undefined);
    const text = value.trim();
    const input = { coreDeposit: clear || text === "" ? null : Number(text) };
    const checked = coreDepositInputSchema.safeParse(input);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? "Enter a valid deposit");
      return;
    }
    save.mutate(checked.data, {
      onSuccess: (saved) => {
        if (saved.coreDeposit === null) setValue("");
        notify.success(
          saved.coreDeposit === null
            ? `${product.name} has no core deposit now`
            : `The core deposit of ${product.name} is saved`,
        );
      },
      onError: (err) => setError(err.message),
    });
  };

  return (
    <form
      noValidate
      className="flex flex-wrap items-end gap-2 rounded-box border border-base-300 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit(false);
      }}
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
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "core-deposit-error" : undefined}
          onChange={(e) => setValue(e.target.value)}
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
          onClick={() => submit(true)}
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
