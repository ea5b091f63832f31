import { useState } from "react";
import type { Address } from "#contract/addresses";
import { AddressForm } from "../../../components/address-form";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { ApiError } from "../../../lib/api-client";
import { notify } from "../../../lib/notify";
import { useAddAddress, useAddresses, useRemoveAddress, useUpdateAddress } from "../api/addresses";

const refusalOf = (err: unknown) =>
  err instanceof ApiError
    ? { message: err.message, fields: err.status === 400 ? err.fields : undefined }
    : err
      ? { message: (err as Error).message }
      : undefined;

/**
 * My Info: the delivery addresses checkout offers, one of them the default (it also prices the
 * one-product order's shipping and tax). Add, edit, make default, remove.
 */
export function AddressBook({ customerName }: { customerName: string }) {
  const book = useAddresses();
  const add = useAddAddress();
  const update = useUpdateAddress();
  const remove = useRemoveAddress();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string>();
  const [removing, setRemoving] = useState<Address>();

  return (
    // No aria-labelledby: a region named "…addresses" would answer for My Info's "Address" field.
    <section data-testid="address-book" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4">
        <h2 className="card-title">Delivery addresses</h2>
        {book.data?.length === 0 && !adding && (
          <p className="text-sm">
            No saved addresses yet. Add one to see shipping and tax before you order.
          </p>
        )}
        <ul className="flex flex-col gap-3">
          {book.data?.map((a) =>
            editing === a.id ? (
              <li key={a.id} className="rounded-box border border-base-300 p-4">
                <AddressForm
                  idPrefix={`edit-${a.id}`}
                  defaultValues={a}
                  submitLabel="Save address"
                  pending={update.isPending}
                  refusal={refusalOf(update.error)}
                  onCancel={() => setEditing(undefined)}
                  onSubmit={async (patch) => {
                    await update.mutateAsync({ id: a.id, patch });
                    setEditing(undefined);
                    notify.success("Address saved");
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
                <div className="flex flex-wrap gap-2">
                  {!a.isDefault && (
                    <button
                      type="button"
                      className="btn btn-sm"
                      disabled={update.isPending}
                      onClick={() =>
                        update.mutate(
                          { id: a.id, patch: { isDefault: true } },
                          { onError: (err) => notify.error(err.message) },
                        )
                      }
                    >
                      Make default
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-sm"
                    aria-label={`Edit ${a.formatted}`}
                    onClick={() => {
                      update.reset();
                      setEditing(a.id);
                    }}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline btn-error"
                    aria-label={`Remove ${a.formatted}`}
                    onClick={() => setRemoving(a)}
                  >
                    Remove
                  </button>
                </div>
              </li>
            ),
          )}
        </ul>
        {adding ? (
          <AddressForm
            idPrefix="new-address"
            defaultValues={{ name: customerName }}
            submitLabel="Add address"
            pending={add.isPending}
            refusal={refusalOf(add.error)}
            onCancel={() => setAdding(false)}
            onSubmit={async (input) => {
              await add.mutateAsync(input);
              setAdding(false);
              notify.success("Address added");
            }}
          />
        ) : (
          <button
            type="button"
            className="btn w-fit"
            onClick={() => {
              add.reset();
              setAdding(true);
            }}
          >
            Add an address
          </button>
        )}
      </div>
      {/* Rendered only while asked: its title would answer for My Info's "Address" field. */}
      {removing && (
        <ConfirmDialog
          open
          title="Remove this address?"
          confirmLabel="Remove"
          busy={remove.isPending}
          error={remove.error?.message}
          onCancel={() => setRemoving(undefined)}
          onConfirm={() =>
            remove.mutate(removing.id, {
              onSuccess: () => setRemoving(undefined),
            })
          }
        >
          {removing.formatted}. Orders sent there keep their copy.
        </ConfirmDialog>
      )}
    </section>
  );
}
