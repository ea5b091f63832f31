import { dayWords } from "#contract/calendar";
import { useEffect, useState } from "react";
import { plural } from "#contract/count";
import {
  discountCodeInputSchema,
  type DiscountCode,
  type DiscountCodeInput,
} from "#contract/discount-codes";
import { useConfirm } from "../../../components/confirm-dialog";
import { ListTable, type Column } from "../../../components/data-table";
import { FormField, moneyAmount } from "../../../components/form-field";
import { SearchForm } from "../../../components/search-form";
import { SelectField } from "../../../components/select-field";
import { formatCount, formatPrice } from "../../../lib/format";
import { notifyOutcome } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useSiteConfig } from "../../../lib/use-site-config";
import {
  useCreateDiscountCode,
  useDiscountCodes,
  useSwitchOffDiscountCode,
  useUpdateDiscountCode,
} from "../api/discount-codes";
import { useCustomerGroups } from "../api/customer-groups";
import { NewEntryForm } from "./new-entry-form";
import { EditEntryDialog } from "./edit-entry-dialog";
import { emptyIsNull, OfferDateFields, OfferTargetField, PercentOffField } from "./offer-fields";

const PAGE_SIZE = 25;

/** A new code's values: 10 % off everything, no limits, active. */
const newCode: DiscountCodeInput = {
  code: "",
  kind: "percent",
  percent: 10,
  amount: null,
  scope: "all",
  category: "Brakes",
  partNumber: "",
  minSubtotal: 0,
  startsOn: null,
  endsOn: null,
  usageLimit: null,
  perCustomerLimit: null,
  customerGroupId: null,
  active: true,
};

/** A saved code as the form shows it (the part by its part number). */
const asInput = (c: DiscountCode): DiscountCodeInput => ({
  code: c.code,
  kind: c.kind,
  percent: c.percent,
  amount: c.amount,
  scope: c.scope,
  category: (c.category ?? "Brakes") as DiscountCodeInput["category"],
  partNumber: c.partNumber ?? "",
  minSubtotal: c.minSubtotal,
  startsOn: c.startsOn,
  endsOn: c.endsOn,
  usageLimit: c.usageLimit,
  perCustomerLimit: c.perCustomerLimit,
  customerGroupId: c.customerGroupId,
  active: c.active,
});

/** An empty number box is null (no limit); one filled gives a number. */
const numberOrNull = {
  setValueAs: (v: string | number | null) => (v === "" || v === null ? null : Number(v)),
};

/**
 * A discount code's form, the same for a new code and an edit: the code, percent or amount off,
 * what it is for, the minimum order, dates, limits and the customer group it is for (docs/pricing.md
 * "Discount codes").
 */
function useCodeForm(prefix: string, defaultValues: DiscountCodeInput) {
  const form = useApiForm(discountCodeInputSchema, { defaultValues });
  const groups = useCustomerGroups();
  const { getValues, setValue } = form;
  // The groups arrive after the form: its group is selected again once its option is there.
  useEffect(() => {
    if (groups.data) setValue("customerGroupId", getValues("customerGroupId"));
  }, [groups.data, getValues, setValue]);
  const { field, watch } = form;
  const kind = watch("kind");
  const scope = watch("scope");
  const fields = (
    <>
      <FormField label="Code" id={`${prefix}-code`} required {...field("code")} />
      <SelectField label="Kind" id={`${prefix}-kind`} {...field("kind")}>
        <option value="percent">Percent off</option>
        <option value="amount">Amount off</option>
      </SelectField>
      {kind === "percent" ? (
        <PercentOffField prefix={prefix} {...field("percent", numberOrNull)} />
      ) : (
        <FormField
          label="Amount off"
          id={`${prefix}-amount`}
          {...moneyAmount(0)}
          {...field("amount", numberOrNull)}
        />
      )}
      <SelectField label="For" id={`${prefix}-scope`} {...field("scope")}>
        <option value="all">All parts</option>
        <option value="category">A category</option>
        <option value="part">One part</option>
      </SelectField>
      <OfferTargetField prefix={prefix} scope={scope} field={field} />
      <FormField
        label="Minimum order"
        id={`${prefix}-minimum`}
        {...moneyAmount(0)}
        {...field("minSubtotal", { setValueAs: (v: string) => (v === "" ? 0 : Number(v)) })}
      />
      <OfferDateFields prefix={prefix} field={field} />
      <FormField
        label="Uses in all (optional)"
        id={`${prefix}-limit`}
        type="number"
        min="1"
        step="1"
        {...field("usageLimit", numberOrNull)}
      />
      <FormField
        label="Uses per customer (optional)"
        id={`${prefix}-per-customer`}
        type="number"
        min="1"
        step="1"
        {...field("perCustomerLimit", numberOrNull)}
      />
      <SelectField
        label="Customer group"
        id={`${prefix}-group`}
        {...field("customerGroupId", emptyIsNull)}
      >
        <option value="">Every customer</option>
        {groups.data?.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
      </SelectField>
    </>
  );
  return { ...form, fields };
}

/** Admin: the discount codes (search, paging), a new one, editing and switching one off. */
/** The days a code works, as the store writes days: "1 Jan 2027 to 31 May 2027", "Until 31 May 2027". */
function datesWords(startsOn: string | null, endsOn: string | null): string {
  if (startsOn && endsOn) return `${dayWords(startsOn)} to ${dayWords(endsOn)}`;
  if (startsOn) return `From ${dayWords(startsOn)}`;
  return endsOn ? `Until ${dayWords(endsOn)}` : "Any day";
}

export function DiscountCodesAdmin() {
  const list = useListPage(PAGE_SIZE);
  const { q } = list;
  const answer = useDiscountCodes(list.query);
  const states = useListStates(list, answer, (total) => plural(total, "discount code"));
  const switchOff = useSwitchOffDiscountCode();
  const [confirm, confirmDialog] = useConfirm();
  const [editing, setEditing] = useState<DiscountCode>();
  // Codes are in the store's currency (docs/pricing.md).
  const currency = useSiteConfig().data?.currency ?? "USD";
  const columns: Column<DiscountCode>[] = [
    { header: "Code", role: "title", cell: (c) => <strong>{c.code}</strong> },
    {
      header: "Takes off",
      // A code for one customer group says so under its words (no column more: the table fits).
      cell: (c) => (
        <>
          {c.words}
          {c.customerGroupName && (
            <span className="block text-xs text-base-content/75">
              For {c.customerGroupName} only
            </span>
          )}
        </>
      ),
    },
    {
      header: "Minimum order",
      numeric: true,
      cell: (c) => (c.minSubtotal > 0 ? formatPrice(c.minSubtotal, currency) : "None"),
    },
    {
      header: "Dates",
      cell: (c) => datesWords(c.startsOn, c.endsOn),
    },
    {
      header: "Used",
      numeric: true,
      cell: (c) =>
        c.usageLimit === null
          ? formatCount(c.used)
          : `${formatCount(c.used)} of ${formatCount(c.usageLimit)}`,
    },
    { header: "Status", cell: (c) => (c.active ? "Active" : "Off") },
    {
      header: "Actions",
      role: "actions",
      cell: (c) => (
        <span className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-sm btn-outline" onClick={() => setEditing(c)}>
            Edit
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline btn-error"
            disabled={!c.active || switchOff.isPending}
            onClick={async () => {
              const question = `Switch off the code ${c.code}? Buyers are told it has ended.`;
              if (!(await confirm({ title: question, confirmLabel: "Switch off" }))) return;
              switchOff.mutate(c.id, notifyOutcome(`Switched off ${c.code}`));
            }}
          >
            Switch off
          </button>
        </span>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      <NewDiscountCode />
      <SearchForm
        label="Search discount codes"
        placeholder="Code"
        value={q}
        onSearch={list.search}
      />
      <ListTable
        {...states}
        filtered={q !== ""}
        empty="No discount codes yet."
        noMatch="No discount code has that code."
        label="Discount codes"
        columns={columns}
        rowKey={(c) => c.id}
        rowTestId="discount-code-row"
      />
      {editing && <EditDiscountCode code={editing} onClose={() => setEditing(undefined)} />}
      {confirmDialog}
    </div>
  );
}

function NewDiscountCode() {
  const create = useCreateDiscountCode();
  const form = useCodeForm("new-code", newCode);
  return (
    <NewEntryForm
      label="New discount code"
      grid="sm:grid-cols-3 lg:grid-cols-4"
      submitLabel="Create code"
      busy={create.isPending}
      form={form}
      create={async (input) => {
        const code = await create.mutateAsync(input);
        return `Created ${code.code}: ${code.words}`;
      }}
    />
  );
}

function EditDiscountCode({ code, onClose }: { code: DiscountCode; onClose: () => void }) {
  const update = useUpdateDiscountCode();
  const form = useCodeForm("edit-code", asInput(code));
  return (
    <EditEntryDialog
      title={`Edit the code ${code.code}`}
      form={form}
      save={async (input) => {
        const saved = await update.mutateAsync({ id: code.id, ...input });
        return `Saved ${saved.code}: ${saved.words}`;
      }}
      busy={update.isPending}
      onClose={onClose}
    />
  );
}
