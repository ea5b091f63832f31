import { useState } from "react";
import type { AddressInput, AddressInputDraft, AddressPatch } from "#contract/addresses";
import { notify } from "../lib/notify";
import { AddressForm } from "./address-form";
import { ConfirmDialog } from "./confirm-dialog";
import { EditRemoveButtons } from "./edit-remove-buttons";
import { QueryError } from "./query-error";
import { PageSection } from "./page-title";

/** Whose addresses: a person's (one of them their default) or a company's ship-to addresses. */
export type AddressOwner =
  { kind: "person"; name: string } | { kind: "company"; canManage: boolean };

/** An address as a book lists it: its fields, one line to show, and whether it is the default. */
export type BookAddress = Omit<AddressInputDraft, "isDefault"> & {
  id: string;
  formatted: string;
  isDefault?: boolean;
};

/** What the book uses of a mutation (TanStack Query's `useMutation` result is one). */
interface Mutation<Variables> {
  mutateAsync(variables: Variables): Promise<unknown>;
  isPending: boolean;
  error: Error | null;
  reset(): void;
}

/**
 * The owner's address API, from its feature's hooks (a person's and a company's addresses are
 * two APIs). A company's addresses take no `isDefault`: the book leaves it out for them.
 */
export interface AddressBookApi {
  list: { data: BookAddress[] | undefined; error: Error | null };
  add: Mutation<AddressInput>;
  update: Mutation<{ id: string; patch: AddressPatch }>;
  remove: Mutation<string>;
}

const withoutDefault = <T extends { isDefault?: boolean }>({ isDefault: _, ...rest }: T) => rest;

/** What each kind of book says, and how it sits on its page. */
const kinds = {
  person: {
    title: "Delivery addresses",
    empty: () => "No saved addresses yet. Add one to see shipping and tax before you order.",
    emptyClass: "text-sm",
    addButton: "Add an address",
    addButtonClass: "btn w-fit",
    submitNew: "Add address",
    idPrefix: { edit: "edit", new: "new-address" },
    added: "Address added",
    saved: "Address saved",
    removeTitle: "Remove this address?",
    removed: undefined,
  },
  company: {
    title: "Ship-to addresses",
    empty: (canManage: boolean) =>
      canManage
        ? "No ship-to addresses yet. The company's buyers can deliver to the ones you add here."
        : "The company has no ship-to addresses yet; its owners add them.",
    emptyClass: "text-sm text-base-content/75",
    addButton: "Add a ship-to address",
    addButtonClass: "btn w-fit btn-sm",
    submitNew: "Add ship-to address",
    idPrefix: { edit: "ship-to", new: "new-ship-to" },
    added: "Ship-to address added",
    saved: "Ship-to address saved",
    removeTitle: "Remove this ship-to address?",
    removed: "Ship-to address removed",
  },
} as const;

/**
 * An address book: its addresses, each with Edit and Remove (and Make default for a person's),
 * and a form to add one. My Info shows a person's (checkout offers them, the default first); a
 * company's page shows its ship-to addresses, which its owners (and admins) manage.
 */
export function AddressBook({ owner, api }: { owner: AddressOwner; api: AddressBookApi }) {
  const { list, add, update, remove } = api;
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string>();
  const [removing, setRemoving] = useState<BookAddress>();
  const k = kinds[owner.kind];
  const person = owner.kind === "person";
  const canManage = person || owner.canManage;
  // A company's address has no default.
  const fields = <T extends { isDefault?: boolean }>(values: T) =>
    person ? values : withoutDefault(values);

  const items = list.data?.map((a) =>
    editing === a.id ? (
      <li key={a.id} className="rounded-box border border-base-300 p-4">
        <AddressForm
          idPrefix={`${k.idPrefix.edit}-${a.id}`}
          defaultValues={a}
          showDefault={person}
          submitLabel="Save address"
          pending={update.isPending}
          onCancel={() => setEditing(undefined)}
          onSubmit={async (patch) => {
            await update.mutateAsync({ id: a.id, patch: fields(patch) });
            setEditing(undefined);
            notify.success(k.saved);
          }}
        />
      </li>
    ) : (
      <li
        key={a.id}
        className="flex flex-col gap-2 rounded-box border border-base-300 p-4 sm:flex-row sm:items-center sm:justify-between"
      >
        <p className="text-sm">
          {a.formatted}
          {a.isDefault && <span className="ml-2 badge badge-primary">Default</span>}
        </p>
        {canManage && (
          <div className="flex flex-wrap gap-2">
            {person && !a.isDefault && (
              <button
                type="button"
                className="btn btn-sm"
                disabled={update.isPending}
                onClick={() =>
                  update
                    .mutateAsync({ id: a.id, patch: { isDefault: true } })
                    .catch((err: Error) => notify.error(err.message))
                }
              >
                Make default
              </button>
            )}
            <EditRemoveButtons
              name={a.formatted}
              onEdit={() => {
                update.reset();
                setEditing(a.id);
              }}
              onRemove={() => setRemoving(a)}
            />
          </div>
        )}
      </li>
    ),
  );

  const newAddress = (
    <AddressForm
      idPrefix={k.idPrefix.new}
      defaultValues={person ? { name: owner.name } : undefined}
      defaultAddressCountry={list.data?.find((a) => a.isDefault)?.country}
      showDefault={person}
      submitLabel={k.submitNew}
      pending={add.isPending}
      onCancel={() => setAdding(false)}
      onSubmit={async (input) => {
        await add.mutateAsync(fields(input) as AddressInput);
        setAdding(false);
        notify.success(k.added);
      }}
    />
  );

  const content = (
    <>
      {list.error && <QueryError error={list.error} />}
      {list.data?.length === 0 && !adding && <p className={k.emptyClass}>{k.empty(canManage)}</p>}
      <ul className="flex flex-col gap-3" data-testid={person ? undefined : "ship-to-addresses"}>
        {items}
      </ul>
      {canManage &&
        (adding ? (
          person ? (
            newAddress
          ) : (
            <div className="rounded-box border border-base-300 p-4">{newAddress}</div>
          )
        ) : (
          <button
            type="button"
            className={k.addButtonClass}
            onClick={() => {
              add.reset();
              setAdding(true);
            }}
          >
            {k.addButton}
          </button>
        ))}
    </>
  );

  // Rendered only while asked: its title would answer for My Info's "Address" field.
  const removeDialog = removing && (
    <ConfirmDialog
      open
      title={k.removeTitle}
      confirmLabel="Remove"
      busy={remove.isPending}
      error={remove.error?.message}
      onCancel={() => setRemoving(undefined)}
      onConfirm={() =>
        remove.mutateAsync(removing.id).then(
          () => {
            setRemoving(undefined);
            if (k.removed) notify.success(k.removed);
          },
          // Said in the dialog (remove.error).
          () => undefined,
        )
      }
    >
      {removing.formatted}. Orders sent there keep their copy.
    </ConfirmDialog>
  );

  return person ? (
    // No aria-labelledby: a region named "…addresses" would answer for My Info's "Address" field.
    <section data-testid="address-book" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4">
        <h2 className="card-title">{k.title}</h2>
        {content}
      </div>
      {removeDialog}
    </section>
  ) : (
    <PageSection compact headingId="ship-to" title={k.title}>
      {content}
      {removeDialog}
    </PageSection>
  );
}
