import {
  feeConditions,
  receivedConditionLabels,
  restockingFeeSchema,
  type RestockingFee,
} from "#contract/returns";
import {
  SettingNumberField,
  SettingsFormFrame,
  SettingsLoader,
  useSettingsForm,
} from "../../../components/settings-form";
import { useRestockingFee, useSetRestockingFee } from "../api/returns";

/** The admin's restocking-fee rule: a percent, and the conditions of received parts it applies to. */
export function RestockingFeeForm() {
  return (
    <SettingsLoader query={useRestockingFee()}>{(fee) => <FeeForm fee={fee} />}</SettingsLoader>
  );
}

function FeeForm({ fee }: { fee: RestockingFee }) {
  const { register, field, frame } = useSettingsForm(
    restockingFeeSchema,
    fee,
    useSetRestockingFee(),
    (saved) =>
      saved.percent > 0 && saved.conditions.length > 0
        ? `Restocking fee saved: ${saved.percent}%`
        : "Restocking fee off",
  );
  return (
    <SettingsFormFrame label="Restocking fee" saveLabel="Save fee" {...frame}>
      <SettingNumberField
        id="restocking-fee-percent"
        label="Fee (percent of the refund; 0: none)"
        min={0}
        max={100}
        field={field("percent", { valueAsNumber: true })}
      />
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-sm font-medium">Charged on parts received</legend>
        <div className="flex flex-wrap gap-4">
          {feeConditions.map((c) => (
            <label key={c} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                value={c}
                {...register("conditions")}
              />
              {receivedConditionLabels[c]}
            </label>
          ))}
        </div>
      </fieldset>
      <p className="text-sm text-base-content/75">
        Only on returns for the customer's own reasons (did not fit, no longer needed): never when a
        part arrived damaged, was the wrong one or failed in use. A wrong part sent back is not
        refunded at all.
      </p>
    </SettingsFormFrame>
  );
}
