import { useState } from "react";
import type { CompanyAddress } from "#contract/company-addresses";
import { AddressForm } from "../../../components/address-form";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { QueryError } from "../../../components/query-error";
import { ApiError } from "../../../lib/api-client";
import { notify } from "../../../lib/notify";
import {
  useAddCompanyAddress,
  useCompanyAddresses,
  useRemoveCompanyAddress,
  useUpdateCompanyAddress,
} from "../api/companies";

const refusalOf = (err: unknown) =>
  err instanceof ApiError
    ? { message: err.message, fields: err.status === 400 ? err.fields : undefined }
    : err
      ? { message: (err as Error).message }
      : undefined;

/**
 * A company's ship-to addresses: its members deliver to them at checkout. `canManage` (the
 * company's owners, admins) adds, edits and removes them; the server checks it again.
 */
export function ShipToAddresses({
  companyId,
  canManage,
}: {
  companyId: string;
  canManage: boolean;
}) {
  const list = useCompanyAddresses(companyId);
  const add = useAddCompanyAddress(companyId);
  const update = useUpdateCompanyAddress(companyId);
  const remove = useRemoveCompanyAddress(companyId);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string>();
  const [removing, setRemoving] = useState<CompanyAddress>();

  return (
    <section aria-labelledby="ship-to" className="flex flex-col gap-3">
      <h2 id="ship-to" className="text-xl font-semibold">
        Ship-to addresses
      </h2>
      {list.error && <QueryError error={list.error} />}
      {list.data?.length === 0 && !adding && (
        <p className="text-sm text-base-content/75">
          {canManage
            ? "No ship-to addresses yet. The company's buyers can deliver to the ones you add here."
            : "The company has no ship-to addresses yet; its owners add them."}
        </p>
      )}
      <ul className="flex flex-col gap-3" data-testid="ship-to-addresses">
        {list.data?.map((a) =>
          editing === a.id ? (
            <li key={a.id} className="rounded-box border border-base-300 p-4">
              <AddressForm
                idPrefix={`ship-to-${a.id}`}
                defaultValues={a}
                showDefault={false}
                submitLabel="Save address"
                pending={update.isPending}
                refusal={refusalOf(update.error)}
                onCancel={() => setEditing(undefined)}
                onSubmit={async ({ isDefault: _, ...patch }) => {
                  await update.mutateAsync({ addressId: a.id, patch });
                  setEditing(undefined);
                  notify.success("Ship-to address saved");
                }}
              />
            </li>
          ) : (
            <li
              key={a.id}
              className="flex flex-col gap-2 rounded-box border border-base-300 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <p className="text-sm">{a.formatted}</p>
              {canManage && (
                <div className="flex flex-wrap gap-2">
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
              )}
            </li>
          ),
        )}
      </ul>
      {canManage &&
        (adding ? (
          <div className="rounded-box border border-base-300 p-4">
            <AddressForm
              idPrefix="new-ship-to"
              showDefault={false}
              submitLabel="Add ship-to address"
              pending={add.isPending}
              refusal={refusalOf(add.error)}
              onCancel={() => setAdding(false)}
              onSubmit={async ({ isDefault: _, ...input }) => {
                await add.mutateAsync(input);
                setAdding(false);
                notify.success("Ship-to address added");
              }}
            />
          </div>
        ) : (
          <button
            type="button"
            className="btn w-fit btn-sm"
            onClick={() => {
              add.reset();
              setAdding(true);
            }}
          >
            Add a ship-to address
          </button>
        ))}
      {removing && (
        <ConfirmDialog
          open
          title="Remove this ship-to address?"
          confirmLabel="Remove"
          busy={remove.isPending}
          error={remove.error?.message}
          onCancel={() => setRemoving(undefined)}
          onConfirm={() =>
            remove.mutate(removing.id, {
              onSuccess: () => {
                setRemoving(undefined);
                notify.success("Ship-to address removed");
              },
            })
          }
        >
          {removing.formatted}. Orders sent there keep their copy.
        </ConfirmDialog>
      )}
    </section>
  );
}
