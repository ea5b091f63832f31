import { plural } from "#contract/count";
import { PageSection } from "../../../components/page-title";
import { useState } from "react";
import type { AccountHolds } from "#contract/orders";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { BreakableEmail, ListTable, type Column } from "../../../components/data-table";
import { formatCount, formatDateTime, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useCancelHolds, useHoldsByAccount } from "../api/orders-admin";
import { RowButton } from "../../../components/edit-remove-buttons";

/** Admin: who holds stock in unpaid orders, largest value first; one action cancels an account's. */
export function HoldsTable() {
  const { data, error, isPending } = useHoldsByAccount();
  const cancel = useCancelHolds();
  const [pending, setPending] = useState<AccountHolds>();

  const columns: Column<AccountHolds>[] = [
    {
      header: "Customer",
      role: "title",
      cell: (h) => (
        <>
          {h.customerName}
          <span className="block text-xs font-normal text-base-content/75">
            <BreakableEmail email={h.orderEmail} />
          </span>
        </>
      ),
    },
    { header: "Unpaid orders", numeric: true, cell: (h) => formatCount(h.orders) },
    { header: "Units held", numeric: true, cell: (h) => formatCount(h.units) },
    { header: "Value", numeric: true, cell: (h) => formatPrice(h.value, h.currency) },
    { header: "First hold ends", cell: (h) => formatDateTime(h.firstExpiresAt) },
    {
      header: "Actions",
      role: "actions",
      cell: (h) => (
        <RowButton
          label={`Cancel holds: ${h.orderEmail}`}
          tone="danger"
          onClick={() => setPending(h)}
        >
          Cancel holds
        </RowButton>
      ),
    },
  ];

  return (
    <PageSection headingId="holds-heading" title="Stock held in unpaid orders">
      <ListTable
        isPending={isPending}
        error={error}
        empty="No account holds stock in unpaid orders."
        label="Stock held per account"
        columns={columns}
        rows={data ?? []}
        rowKey={(h) => h.userId}
        rowTestId="account-holds"
      />
      <ConfirmDialog
        open={pending !== undefined}
        title="Cancel this account's holds?"
        confirmLabel="Cancel holds"
        busy={cancel.isPending}
        error={cancel.error?.message}
        onCancel={() => {
          cancel.reset();
          setPending(undefined);
        }}
        onConfirm={() =>
          pending &&
          cancel.mutate(pending.userId, {
            onSuccess: ({ cancelledOrders }) => {
              notify.success(`${plural(cancelledOrders, "unpaid order")} cancelled`);
              setPending(undefined);
            },
          })
        }
      >
        {pending && (
          <p>
            Every unpaid order of {pending.customerName} ({pending.orderEmail}) is cancelled:{" "}
            {formatCount(pending.units)} units worth {formatPrice(pending.value, pending.currency)}{" "}
            go back on sale.
          </p>
        )}
      </ConfirmDialog>
    </PageSection>
  );
}
