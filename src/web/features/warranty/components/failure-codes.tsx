import { useState } from "react";
import type { z } from "zod";
import {
  failureCodeInputSchema,
  failureCodeParamsSchema,
  type FailureCode,
} from "#contract/warranty";
import { ListTable, type Column } from "../../../components/data-table";
import { FormDialog, useFormDialog } from "../../../components/form-dialog";
import { FormError, FormField } from "../../../components/form-field";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useFailureCodes, useSetFailureCode } from "../api/warranty";
import { RowButton } from "../../../components/edit-remove-buttons";
import { wholeListStates } from "../../../lib/use-list-page";

const newCodeSchema = failureCodeParamsSchema.extend({ label: failureCodeInputSchema.shape.label });

/**
 * Admin: the failure codes an inspection chooses from. A code is added with its name, renamed,
 * or retired (and put back in use); never removed, so old claims keep their words.
 */
export function FailureCodes() {
  const codes = useFailureCodes();
  const set = useSetFailureCode();
  const [renaming, setRenaming] = useState<FailureCode>();
  const toggle = async (c: FailureCode) => {
    try {
      await set.mutateAsync({ code: c.code, body: { label: c.label, active: !c.active } });
      notify.success(c.active ? `${c.code} retired` : `${c.code} in use again`);
    } catch (err) {
      notify.error((err as Error).message);
    }
  };
  const columns: Column<FailureCode>[] = [
    { header: "Code", role: "title", cell: (c) => <span className="font-mono">{c.code}</span> },
    { header: "Name", cell: (c) => c.label },
    { header: "In use", cell: (c) => (c.active ? "Yes" : "Retired") },
    {
      header: "Actions",
      role: "actions",
      cell: (c) => (
        <>
          <RowButton label={`Rename ${c.code}`} onClick={() => setRenaming(c)}>
            Rename
          </RowButton>
          <RowButton
            label={`${c.active ? "Retire" : "Put back in use"} ${c.code}`}
            tone="ghost"
            disabled={set.isPending}
            onClick={() => void toggle(c)}
          >
            {c.active ? "Retire" : "Put back in use"}
          </RowButton>
        </>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-3">
      <AddCode />
      <ListTable
        {...wholeListStates(codes)}
        empty="No failure codes yet."
        label="Failure codes"
        columns={columns}
        rowKey={(c) => c.code}
      />
      {renaming && <RenameCode code={renaming} onClose={() => setRenaming(undefined)} />}
    </div>
  );
}

function AddCode() {
  const set = useSetFailureCode();
  const { field, submitWith, formError, reset } = useApiForm(newCodeSchema, {
    defaultValues: { code: "", label: "" },
  });
  const send = async ({ code, label }: z.output<typeof newCodeSchema>) => {
    await set.mutateAsync({ code, body: { label, active: true } });
    notify.success(`Failure code ${code} added`);
    reset();
  };
  return (
    <form
      noValidate
      aria-label="Add a failure code"
      className="flex flex-col gap-2 sm:flex-row sm:items-start"
      onSubmit={submitWith(send)}
    >
      <FormField
        label="Code"
        placeholder="CORR"
        maxLength={20}
        {...field("code", { setValueAs: (v: string) => v.trim().toUpperCase() })}
      />
      <div className="flex-1">
        <FormField label="Name" placeholder="Corrosion" maxLength={100} {...field("label")} />
      </div>
      <button type="submit" className="btn sm:mt-6" disabled={set.isPending}>
        Add code
      </button>
      <FormError message={formError} />
    </form>
  );
}

function RenameCode({ code, onClose }: { code: FailureCode; onClose(): void }) {
  const set = useSetFailureCode();
  const schema = failureCodeInputSchema.pick({ label: true });
  const { field, dialog } = useFormDialog(
    schema,
    { label: code.label },
    {
      write: ({ label }) =>
        set.mutateAsync({ code: code.code, body: { label, active: code.active } }),
      busy: set.isPending,
      said: () => `${code.code} renamed`,
      onClose,
    },
  );
  return (
    <FormDialog title={`Rename ${code.code}`} named {...dialog}>
      <FormField label="Name" maxLength={100} {...field("label")} />
    </FormDialog>
  );
}
