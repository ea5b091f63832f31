import { plural } from "#contract/count";
import { useState, type ReactNode } from "react";
import { notify } from "../../../lib/notify";
import type { Product, ProductDetail } from "#contract/products";
import { ConfirmDialog, useConfirm } from "../../../components/confirm-dialog";
import { Modal } from "../../../components/modal";
import { leaveUnsavedQuestion } from "../../../lib/use-unsaved-changes";
import { ListTable, type Column } from "../../../components/data-table";
import { SearchForm } from "../../../components/search-form";
import { formatPrice, formatWarranty } from "../../../lib/format";
import { useSiteConfig } from "../../../lib/use-site-config";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import { useDeleteProduct } from "../api/delete-product";
import { useProducts } from "../api/get-products";
import { EditProductLoader } from "./edit-product-form";
import { RowButton } from "../../../components/edit-remove-buttons";

export const MANAGE_PAGE_SIZE = 20;

/** Manage All Products (admins): every product in a table, with search, edit and delete. */
export function ManageProducts({
  rowActions,
  editExtras,
}: {
  /** More buttons for a product's row (the page adds the fitment editor's). */
  rowActions?: (product: Product) => ReactNode;
  /** More sections of the edit dialog (the page adds the product's attributes). */
  editExtras?: (product: ProductDetail) => ReactNode;
} = {}) {
  const [params, update] = useUrlParams();
  const q = params.get("q") ?? "";
  const page = pageParam(params, MANAGE_PAGE_SIZE);
  const currency = useSiteConfig().data?.currency;
  const { data, error, isPending } = useProducts({
    limit: MANAGE_PAGE_SIZE,
    offset: (page - 1) * MANAGE_PAGE_SIZE,
    sort: "newest",
    q: q || undefined,
  });
  const remove = useDeleteProduct();
  const [editing, setEditing] = useState<Product>();
  const [deleting, setDeleting] = useState<Product>();
  const [editDirty, setEditDirty] = useState(false);
  const [confirm, confirmDialog] = useConfirm();

  const pageCount = Math.max(1, Math.ceil((data?.total ?? 0) / MANAGE_PAGE_SIZE));
  useStayWithinPages(page, data ? pageCount : undefined, update);

  const columns: Column<Product>[] = [
    {
      header: "Image",
      role: "media",
      from: "lg",
      cell: (p) => (
        <img
          src={p.img}
          alt=""
          width="48"
          height="36"
          loading="lazy"
          className="h-9 w-12 max-w-none rounded border border-base-300 bg-base-200 object-cover"
        />
      ),
    },
    {
      header: "Name",
      role: "title",
      cell: (p) => (
        <>
          {p.name}
          <span className="block font-mono text-xs font-normal" data-testid="part-number">
            {p.partNumber}
          </span>
        </>
      ),
    },
    // Left out of narrower tables (the dashboard's sidebar leaves too little room for every
    // column); the phone cards and the edit dialog show them.
    { header: "Category", from: "2xl", cell: (p) => p.category },
    { header: "Price", numeric: true, cell: (p) => formatPrice(p.price, currency) },
    {
      header: "Minimum order",
      numeric: true,
      from: "lg",
      testId: "minimum-order",
      cell: (p) => p.minimumOrder,
    },
    { header: "Available", numeric: true, testId: "stock", cell: (p) => p.availableQuantity },
    { header: "Warranty", from: "2xl", cell: (p) => formatWarranty(p.warranty) },
    {
      header: "Actions",
      role: "actions",
      cell: (p) => (
        <>
          <RowButton label={`Edit ${p.name}`} tone="outline" onClick={() => setEditing(p)}>
            Edit
          </RowButton>
          <RowButton label={`Delete ${p.name}`} tone="danger" onClick={() => setDeleting(p)}>
            Delete
          </RowButton>
          {rowActions?.(p)}
        </>
      ),
    },
  ];

  const closeDelete = () => {
    remove.reset();
    setDeleting(undefined);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="mb-2">
        <SearchForm
          label="Search products"
          placeholder="Product name"
          value={q}
          onSearch={(text) => update({ q: text, page: undefined })}
        />
      </div>

      <ListTable
        isPending={isPending}
        error={error}
        filtered={Boolean(q)}
        empty="There are no products yet."
        noMatch={`No products match “${q}”.`}
        summary={data && `${plural(data.total, "product")}${q ? ` matching “${q}”` : ""}`}
        page={page}
        pageCount={pageCount}
        onPage={(n) => update({ page: n === 1 ? undefined : String(n) })}
        label="Products"
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(p) => p._id}
      />

      <Modal
        open={editing !== undefined}
        title={editing ? `Edit ${editing.name}` : "Edit product"}
        onClose={async () => {
          // Asked only when the person closes it (Escape), not when a save closed it.
          if (editing && (!editDirty || (await confirm(leaveUnsavedQuestion)))) {
            setEditing(undefined);
          }
        }}
      >
        {editing && (
          <EditProductLoader
            key={editing._id}
            productId={editing._id}
            onDone={() => setEditing(undefined)}
            onDirtyChange={setEditDirty}
            extras={editExtras}
          />
        )}
      </Modal>

      <ConfirmDialog
        open={deleting !== undefined}
        title="Are you sure?"
        confirmLabel="Delete"
        busy={remove.isPending}
        error={remove.error?.message}
        onCancel={closeDelete}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              notify.success(`${deleting.name} is deleted`);
              setDeleting(undefined);
            },
          })
        }
      >
        {deleting && (
          <p>
            {deleting.name} will be removed from the store. Paid orders keep its name and price.
            This cannot be undone.
          </p>
        )}
      </ConfirmDialog>
      {confirmDialog}
    </div>
  );
}
