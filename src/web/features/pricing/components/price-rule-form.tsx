import {
  priceRuleInputSchema,
  type PriceRule,
  type PriceRuleInput,
} from "#contract/customer-groups";
import { FormField } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { useApiForm } from "../../../lib/use-api-form";
import { useAddPriceRule, useUpdatePriceRule } from "../api/customer-groups";
import { NewEntryForm } from "./new-entry-form";
import { EditEntryDialog } from "./edit-entry-dialog";
import { OfferDateFields, OfferTargetField, PercentOffField } from "./offer-fields";

/** A new rule's values: 10 % off brakes, always. */
const newRule: PriceRuleInput = {
  percent: 10,
  scope: "category",
  category: "Brakes",
  brand: "",
  partNumber: "",
  startsOn: null,
  endsOn: null,
};

/** A saved rule as the form shows it (the part by its part number). */
const asInput = (r: PriceRule): PriceRuleInput => ({
  percent: r.percent,
  scope: r.scope,
  category: (r.category ?? "Brakes") as PriceRuleInput["category"],
  brand: r.brand ?? "",
  partNumber: r.partNumber ?? "",
  startsOn: r.startsOn,
  endsOn: r.endsOn,
});

/**
 * A price rule's form, the same for adding and editing: percent off, what it applies to (a
 * category, a brand or one part) and its optional dates. `prefix` keeps the two forms' ids apart.
 */
function useRuleForm(prefix: string, defaultValues: PriceRuleInput) {
  const form = useApiForm(priceRuleInputSchema, { defaultValues });
  const { field, watch } = form;
  const scope = watch("scope");
  const fields = (
    <>
      <PercentOffField prefix={prefix} required {...field("percent", { valueAsNumber: true })} />
      <SelectField label="Applies to" id={`${prefix}-scope`} {...field("scope")}>
        <option value="category">A category</option>
        <option value="brand">A brand</option>
        <option value="part">One part</option>
      </SelectField>
      <OfferTargetField prefix={prefix} scope={scope} field={field} />
      {scope === "brand" && <FormField label="Brand" id={`${prefix}-brand`} {...field("brand")} />}
      <OfferDateFields prefix={prefix} field={field} />
    </>
  );
  return { ...form, fields };
}

/** A group's new rule, under its rules' list. */
export function NewRule({ groupId }: { groupId: string }) {
  const add = useAddPriceRule(groupId);
  const form = useRuleForm("rule", newRule);
  return (
    <NewEntryForm
      label="New price rule"
      grid="sm:grid-cols-3 lg:grid-cols-6"
      browserChecks
      submitLabel="Add rule"
      busy={add.isPending}
      form={form}
      errorClassName="text-error sm:col-span-3 lg:col-span-6"
      create={async (input) => {
        const rule = await add.mutateAsync(input);
        return `Added ${rule.words}`;
      }}
    />
  );
}

/** A rule changed in a dialog: the same form, filled with the rule. */
export function EditRuleDialog({ rule, onClose }: { rule: PriceRule; onClose: () => void }) {
  const update = useUpdatePriceRule(rule.groupId);
  const form = useRuleForm("edit-rule", asInput(rule));
  return (
    <EditEntryDialog
      title={`Edit the rule ${rule.words}`}
      form={form}
      save={async (input) => {
        const saved = await update.mutateAsync({ ruleId: rule.id, ...input });
        return `Saved ${saved.words}`;
      }}
      busy={update.isPending}
      onClose={onClose}
    />
  );
}
