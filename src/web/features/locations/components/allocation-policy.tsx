import {
  allocationPolicySchema,
  allocationWords,
  type AllocationPolicy,
} from "#contract/locations";
import {
  SettingsFormFrame,
  SettingsLoader,
  useSettingsForm,
} from "../../../components/settings-form";
import { useAllocationPolicy, useSetAllocationPolicy } from "../api/locations";

/**
 * Admin: how orders are allocated to locations (docs/inventory.md "Allocation"): from one
 * location when one has the whole order, or each part from the nearest location that has it.
 */
export function AllocationPolicyForm() {
  return (
    <SettingsLoader query={useAllocationPolicy()}>
      {(policy) => <PolicyForm policy={policy} />}
    </SettingsLoader>
  );
}

function PolicyForm({ policy }: { policy: AllocationPolicy }) {
  const { register, frame } = useSettingsForm(
    allocationPolicySchema,
    { wholeOrder: policy.wholeOrder },
    useSetAllocationPolicy(),
    (saved) => allocationWords.saved(saved.wholeOrder),
  );
  return (
    <section aria-labelledby="allocation-heading" className="flex flex-col gap-2">
      <h2 id="allocation-heading" className="text-lg font-bold">
        {allocationWords.title}
      </h2>
      <SettingsFormFrame label={allocationWords.title} saveLabel="Save" {...frame}>
        <label className="flex cursor-pointer items-center gap-3">
          <input type="checkbox" className="checkbox checkbox-sm" {...register("wholeOrder")} />
          {allocationWords.wholeOrder}
        </label>
        <p className="text-sm text-base-content/75">{allocationWords.hint}</p>
      </SettingsFormFrame>
    </section>
  );
}
