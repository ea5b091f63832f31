import { formatCount, plural } from "#contract/count";
import { useState } from "react";
import {
  attributeMessages,
  type AdminAttributeDefinition,
  type AttributeDefinition,
} from "#contract/attributes";
import { productCategories, type ProductCategory } from "#contract/constants";
import { RemoveDialog } from "../../../components/confirm-dialog";
import { ListTable, type Column } from "../../../components/data-table";
import { editRemoveColumn } from "../../../components/edit-remove-buttons";
import { SelectField } from "../../../components/select-field";
import { useUrlParams } from "../../../lib/use-url-params";
import { useAttributeTable, useRemoveAttribute } from "../api/attributes";
import { AddAttributeForm, EditAttributeDialog, kindLabels } from "./attribute-forms";

/** "Number, mm", "Choice: Solid, Vented", "Text". */
export function kindInWords(d: Pick<AttributeDefinition, "kind" | "unit" | "choices">): string {
  if (d.kind === "number") return d.unit ? `Number, ${d.unit}` : "Number";
  if (d.kind === "choice") return `Choice: ${d.choices.join(", ")}`;
  return kindLabels[d.kind];
}

const isCategory = (value: string | null): value is ProductCategory =>
  (productCategories as readonly string[]).includes(value ?? "");

/**
 * The attributes of each category's parts (docs/attributes.md), for admins: a category's list in
 * its order, with how many parts have a value of each, to add, edit and remove.
 */
export function AttributeAdmin() {
  const [params, update] = useUrlParams();
  const chosen = params.get("category");
  const category: ProductCategory = isCategory(chosen) ? chosen : productCategories[0];
  const answer = useAttributeTable(category);
  const [editing, setEditing] = useState<AttributeDefinition>();
  const [removing, setRemoving] = useState<AdminAttributeDefinition>();
  const remove = useRemoveAttribute();
  const rows = answer.data ?? [];
  const columns: Column<AdminAttributeDefinition>[] = [
    { header: "Name", role: "title", cell: (d) => d.name },
    { header: "Kind", cell: (d) => <span className="break-words">{kindInWords(d)}</span> },
    { header: "Filter", cell: (d) => (d.filterable ? "Yes" : "No") },
    { header: "Position", numeric: true, from: "lg", cell: (d) => d.position },
    { header: "Parts with a value", numeric: true, cell: (d) => formatCount(d.usedBy) },
    editRemoveColumn((d) => d.name, setEditing, setRemoving),
  ];
  return (
    <div className="flex flex-col gap-4">
      <div className="sm:max-w-xs">
        <SelectField
          label="Category"
          id="attribute-category"
          value={category}
          onChange={(e) => update({ category: e.target.value })}
        >
          {productCategories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </SelectField>
      </div>
      <ListTable
        isPending={answer.isPending}
        error={answer.error}
        empty={`${category} parts have no attributes yet: add one below.`}
        summary={`${plural(rows.length, "attribute")} of ${category} parts`}
        label={`Attributes of ${category} parts`}
        columns={columns}
        rows={rows}
        rowKey={(d) => d.id}
        rowTestId="attribute-row"
      />
      <AddAttributeForm key={category} category={category} />
      {editing && (
        <EditAttributeDialog
          key={editing.id}
          definition={editing}
          onClose={() => setEditing(undefined)}
        />
      )}
      <RemoveDialog
        target={removing}
        close={() => setRemoving(undefined)}
        title={removing ? attributeMessages.removeTitle(removing.name) : ""}
        confirmLabel="Remove attribute"
        removal={remove}
        removed={removing && attributeMessages.removed(removing.name)}
      >
        {(d) => <>{attributeMessages.removeParts(d.usedBy)}</>}
      </RemoveDialog>
    </div>
  );
}
