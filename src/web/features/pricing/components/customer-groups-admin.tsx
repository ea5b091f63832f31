import { dayWords } from "#contract/calendar";
import { useState } from "react";
import {
  customerGroupCreateSchema,
  type CustomerGroup,
  type PriceRule,
} from "#contract/customer-groups";
import { useConfirm } from "../../../components/confirm-dialog";
import { ListTable, type Column } from "../../../components/data-table";
import { editRemoveColumn } from "../../../components/edit-remove-buttons";
import { formatCount } from "../../../lib/format";
import { notifyOutcome } from "../../../lib/notify";
import {
  useCreateCustomerGroup,
  useCustomerGroups,
  useDeleteCustomerGroup,
  usePriceRules,
  useRemovePriceRule,
  useUpdateCustomerGroup,
} from "../api/customer-groups";
import { NewNameForm } from "./new-entry-form";
import { EditRuleDialog, NewRule } from "./price-rule-form";
import { wholeListStates } from "../../../lib/use-list-page";

/**
 * Admin: the customer groups (docs/pricing.md "Customer groups and price rules"): a new one,
 * whether its buyers keep trade minimums, removing one no company belongs to; and the chosen
 * group's price rules (a percentage off by category, brand or part, with dates).
 */
export function CustomerGroupsAdmin() {
  const answer = useCustomerGroups();
  const groups = answer.data ?? [];
  const [chosenId, setChosenId] = useState<string>();
  const chosen = groups.find((g) => g.id === chosenId) ?? groups.find((g) => !g.retail);
  const update = useUpdateCustomerGroup();
  const remove = useDeleteCustomerGroup();
  const [confirm, confirmDialog] = useConfirm();
  const columns: Column<CustomerGroup>[] = [
    { header: "Group", role: "title", cell: (g) => g.name },
    {
      header: "Quantities",
      cell: (g) => (g.tradeMinimums ? "Trade minimums, in packs" : "Retail minimums"),
    },
    { header: "Companies", numeric: true, cell: (g) => formatCount(g.companyCount) },
    { header: "Customers", numeric: true, cell: (g) => formatCount(g.customerCount) },
    { header: "Price rules", numeric: true, cell: (g) => formatCount(g.ruleCount) },
    {
      header: "Actions",
      role: "actions",
      cell: (g) => (
        <div className="flex flex-wrap gap-2">
          {!g.retail && (
            <button
              type="button"
              className="btn btn-sm btn-outline"
              aria-pressed={chosen?.id === g.id}
              onClick={() => setChosenId(g.id)}
            >
              Price rules of {g.name}
            </button>
          )}
          <button
            type="button"
            className="btn btn-sm btn-outline"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: g.id, tradeMinimums: !g.tradeMinimums },
                notifyOutcome((after) =>
                  after.tradeMinimums
                    ? `${after.name} buyers keep each part's trade minimum and pack size`
                    : `${after.name} buyers buy from each part's retail minimum`,
                ),
              )
            }
          >
            {g.tradeMinimums ? "Use retail minimums" : "Keep trade minimums"}
          </button>
          {!g.retail && (
            <button
              type="button"
              className="btn btn-sm btn-outline btn-error"
              disabled={g.companyCount + g.customerCount > 0 || remove.isPending}
              title={
                g.companyCount + g.customerCount > 0
                  ? "Companies or customers belong to this group"
                  : undefined
              }
              onClick={async () => {
                const question = `Remove the group ${g.name} and its price rules?`;
                if (!(await confirm({ title: question, confirmLabel: "Remove" }))) return;
                remove.mutate(g.id, notifyOutcome(`Removed ${g.name}`));
              }}
            >
              Remove
            </button>
          )}
        </div>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      <p className="text-base-content/75">
        Customers without a company are retail (list prices, each part's retail minimum) unless you
        place them in another group on Manage users. Each company belongs to one group, chosen on
        its page.
      </p>
      <NewGroup />
      <ListTable
        isPending={answer.isPending}
        error={answer.error}
        empty="No customer groups yet."
        label="Customer groups"
        columns={columns}
        rows={groups}
        rowKey={(g) => g.id}
        rowTestId="customer-group-row"
      />
      {chosen && <GroupRules group={chosen} />}
      {confirmDialog}
    </div>
  );
}

function NewGroup() {
  const create = useCreateCustomerGroup();
  return (
    <NewNameForm
      schema={customerGroupCreateSchema}
      defaultValues={{ name: "", tradeMinimums: true }}
      label="New customer group"
      id="new-customer-group"
      submitLabel="Create group"
      create={create.mutateAsync}
      busy={create.isPending}
    />
  );
}

/** A group's rules: the list (words and dates) and a new one. */
function GroupRules({ group }: { group: CustomerGroup }) {
  const rules = usePriceRules(group.id);
  const remove = useRemovePriceRule(group.id);
  const [editing, setEditing] = useState<PriceRule>();
  const columns: Column<PriceRule>[] = [
    { header: "Rule", role: "title", cell: (r) => r.words },
    { header: "From", cell: (r) => (r.startsOn ? dayWords(r.startsOn) : "Always") },
    { header: "Until", cell: (r) => (r.endsOn ? dayWords(r.endsOn) : "No end") },
    editRemoveColumn(
      (r) => `the rule ${r.words}`,
      setEditing,
      (r) => remove.mutate(r.id, notifyOutcome(`Removed ${r.words}`)),
    ),
  ];
  return (
    <section aria-labelledby="group-rules" className="flex flex-col gap-3">
      <h2 id="group-rules" className="text-lg font-semibold">
        Price rules of {group.name}
      </h2>
      <p className="text-sm text-base-content/75">
        A part takes its own rule first, then its brand&apos;s, then its category&apos;s; a
        company&apos;s fixed price or a quantity break that is lower still wins.
      </p>
      <NewRule key={group.id} groupId={group.id} />
      <ListTable
        {...wholeListStates(rules)}
        empty={`${group.name} buyers pay list prices: no rule yet.`}
        label={`Price rules of ${group.name}`}
        columns={columns}
        rowKey={(r) => r.id}
        rowTestId="price-rule-row"
      />
      {editing && <EditRuleDialog rule={editing} onClose={() => setEditing(undefined)} />}
    </section>
  );
}
