import { useState } from "react";
import { notify } from "../../../lib/notify";
import type { Product } from "#contract/products";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { Modal } from "../../../components/modal";
import { Pagination } from "../../../components/pagination";
import { QueryError } from "../../../components/query-error";
import { SearchForm } from "../../../components/search-form";
import { PageSpinner } from "../../../components/spinner";
import { formatPrice, formatWarranty } from "../../../lib/format";
import { useSiteConfig } from "../../../lib/use-site-config";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import { useDeleteProduct } from "../api/delete-product";
import { useProducts } from "../api/get-products";
import { EditProductForm } from "./edit-product-form";

export const MANAGE_PAGE_SIZE = 20;

/** Manage All Products (admins): every product in a table, with search, edit and delete. */
export function ManageProducts() {
  const [params, update] = useUrlParams();
  const q = params.get("q") ?? "";
  const page = pageParam(params);
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

  const pageCount = Math.max(1, Math.ceil((data?.total ?? 0) / MANAGE_PAGE_SIZE));
  useStayWithinPages(page, data ? pageCount : undefined, update);

  const closeDelete = () => {
    remove.reset();
    setDeleting(undefined);
  };

  return (
    <div>
      <div className="mb-6">
        <SearchForm
          label="Search products"
          placeholder="Product name"
          value={q}
          onSearch={(text) => update({ q: text, page: undefined })}
        />
      </div>

      {isPending ? (
        <PageSpinner />
      ) : error ? (
        <QueryError error={error} />
      ) : data.items.length === 0 ? (
        <p className="rounded-box bg-base-200 p-8 text-center text-base-content/70">
          {q ? `No products match “${q}”.` : "There are no products yet."}
        </p>
      ) : (
        <>
          <p className="mb-2 text-sm text-base-content/70" aria-live="polite">
            {data.total} {data.total === 1 ? "product" : "products"}
            {q ? ` matching “${q}”` : ""}
          </p>
          <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
            <table className="table" aria-label="Products">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="sr-only">Image</span>
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col" className="text-right">
                    Price
                  </th>
                  <th scope="col" className="text-right">
                    Minimum order
                  </th>
                  <th scope="col" className="text-right">
                    Available
                  </th>
                  <th scope="col">Warranty</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((p) => (
                  <tr key={p._id}>
                    <td>
                      <img
                        src={p.img}
                        alt=""
                        width="48"
                        height="36"
                        loading="lazy"
                        className="h-9 w-12 rounded border border-base-300 bg-base-200 object-cover"
                      />
                    </td>
                    <th scope="row" className="font-medium">
                      {p.name}
                    </th>
                    <td className="text-right">{formatPrice(p.price, currency)}</td>
                    <td className="text-right" data-testid="minimum-order">
                      {p.minimumOrder}
                    </td>
                    <td className="text-right" data-testid="stock">
                      {p.availableQuantity}
                    </td>
                    <td>{formatWarranty(p.warranty)}</td>
                    <td>
                      <div className="flex justify-end gap-2">
                        <button
                          type="button"
                          className="btn btn-sm btn-outline"
                          aria-label={`Edit ${p.name}`}
                          onClick={() => setEditing(p)}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="btn btn-sm btn-outline btn-error"
                          aria-label={`Delete ${p.name}`}
                          onClick={() => setDeleting(p)}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={Math.min(page, pageCount)}
            pageCount={pageCount}
            onChange={(n) => update({ page: n === 1 ? undefined : String(n) })}
          />
        </>
      )}

      <Modal
        open={editing !== undefined}
        title={editing ? `Edit ${editing.name}` : "Edit product"}
        onClose={() => setEditing(undefined)}
      >
        {editing && (
          <EditProductForm
            key={editing._id}
            product={editing}
            onDone={() => setEditing(undefined)}
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
    </div>
  );
}
