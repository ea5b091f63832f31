import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { paths } from "#contract/paths";
import { RemoveDialog } from "../../../components/confirm-dialog";
import { ListTable, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { formatDate } from "../../../lib/format";
import type { ListSummary } from "#contract/lists";
import { useCreateList, useDeleteList, useMyLists } from "../api/lists";
import { FormError } from "../../../components/form-field";
import { ListNameInput } from "./labelled-input";
import { RowButton } from "../../../components/edit-remove-buttons";

/** My Lists: the customer's saved lists of parts ("Monthly fleet service kit"). */
export function MyLists() {
  const { data: lists, error, isPending } = useMyLists();
  const create = useCreateList();
  const remove = useDeleteList();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [toDelete, setToDelete] = useState<ListSummary>();

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name },
      {
        onSuccess: (list) => {
          setName("");
          navigate(paths.list.to(list.id));
        },
      },
    );
  };

  const columns: Column<ListSummary>[] = [
    {
      header: "List",
      role: "title",
      cell: (l) => (
        <Link to={paths.list.to(l.id)} className="link link-hover">
          {l.name}
        </Link>
      ),
    },
    { header: "Parts", numeric: true, cell: (l) => l.lineCount },
    { header: "Changed", cell: (l) => formatDate(l.updatedAt) },
    {
      header: "Actions",
      role: "actions",
      cell: (l) => (
        <RowButton label={`Delete list ${l.name}`} tone="danger" onClick={() => setToDelete(l)}>
          Delete
        </RowButton>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={onCreate} className="flex flex-wrap items-end gap-2">
        <ListNameInput
          label="New list"
          placeholder="Monthly fleet service kit"
          value={name}
          onChange={setName}
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={create.isPending || !name.trim()}
        >
          Create list
        </button>
        <FormError message={create.error?.message} className="w-full text-sm text-error" />
      </form>
      <ListTable
        isPending={isPending}
        error={error}
        empty={<>You have no lists yet. Name one above, then add parts to it.</>}
        label="My lists"
        columns={columns}
        rows={lists ?? []}
        rowKey={(l) => l.id}
        rowTestId="my-list"
      />
      <RemoveDialog
        target={toDelete}
        close={() => setToDelete(undefined)}
        title="Delete this list?"
        confirmLabel="Delete"
        removal={remove}
        id={(l) => l.id}
        removed="The list is deleted"
      >
        {(l) => <p>The list “{l.name}” will be deleted. Your cart is not changed.</p>}
      </RemoveDialog>
    </div>
  );
}
