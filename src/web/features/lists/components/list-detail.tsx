import { plural } from "#contract/count";
import { useState, type FormEvent } from "react";
import type { ListLine, SavedList } from "#contract/lists";
import { paths } from "#contract/paths";
import { DataTable, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import {
  findPart,
  useAddListToCart,
  useRemoveListItem,
  useRenameList,
  useSetListItem,
} from "../api/lists";
import { FormError } from "../../../components/form-field";
import { LabelledInput, ListNameInput } from "./labelled-input";
import { RowButton } from "../../../components/edit-remove-buttons";

/** One saved list: its parts at today's prices, to edit, and to put in the cart whole. */
export function ListDetail({ list }: { list: SavedList }) {
  const rename = useRenameList(list.id);
  const setItem = useSetListItem(list.id);
  const removeItem = useRemoveListItem(list.id);
  const addToCart = useAddListToCart(list.id);
  const [name, setName] = useState(list.name);
  const [number, setNumber] = useState("");
  const [qty, setQty] = useState("1");
  const [findError, setFindError] = useState<string>();
  const money = (n: number) => formatPrice(n, list.currency);

  const onRename = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate(name, { onSuccess: () => notify.success("The list is renamed") });
  };

  const onAdd = async (e: FormEvent) => {
    e.preventDefault();
    setFindError(undefined);
    const n = Number(qty);
    if (!Number.isInteger(n) || n < 1) {
      setFindError("Enter a whole quantity of at least 1");
      return;
    }
    try {
      const found = await findPart(number);
      if (!found.product) {
        setFindError(found.problem?.message ?? `No part has the number ${number}`);
        return;
      }
      const have = list.lines.find((l) => l.productId === found.product!.id)?.qty ?? 0;
      setItem.mutate(
        { productId: found.product.id, qty: have + n },
        {
          onSuccess: () => {
            setNumber("");
            setQty("1");
          },
        },
      );
    } catch (err) {
      setFindError((err as Error).message);
    }
  };

  const columns: Column<ListLine>[] = [
    {
      header: "Part",
      role: "title",
      cell: (l) => (
        <div className="flex flex-col">
          <Link to={paths.product.to(l.productId)} className="link link-hover">
            {l.productName}
          </Link>
          <span className="text-xs font-normal text-base-content/75">{l.partNumber}</span>
        </div>
      ),
    },
    {
      header: "Quantity",
      cell: (l) => (
        <input
          key={`${l.productId}-${l.qty}`}
          className="input input-sm w-24"
          inputMode="numeric"
          defaultValue={l.qty}
          aria-label={`Quantity of ${l.productName}`}
          onBlur={(e) => {
            const n = Number(e.target.value);
            if (Number.isInteger(n) && n >= 1 && n !== l.qty) {
              setItem.mutate({ productId: l.productId, qty: n });
            } else e.target.value = String(l.qty);
          }}
        />
      ),
    },
    { header: "Price", numeric: true, cell: (l) => money(l.unitPrice) },
    {
      header: "Stock",
      numeric: true,
      cell: (l) => (l.availableQuantity > 0 ? `${l.availableQuantity} in stock` : "Out of stock"),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (l) => (
        <RowButton
          label={`Remove ${l.productName} from the list`}
          tone="ghost"
          onClick={() => removeItem.mutate(l.productId)}
        >
          Remove
        </RowButton>
      ),
    },
  ];

  const error = setItem.error ?? removeItem.error ?? rename.error ?? addToCart.error;

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={onRename} className="flex flex-wrap items-end gap-2">
        <ListNameInput label="List name" value={name} onChange={setName} />
        <button
          type="submit"
          className="btn btn-outline"
          disabled={rename.isPending || !name.trim() || name.trim() === list.name}
        >
          Rename
        </button>
      </form>

      <form onSubmit={onAdd} className="flex flex-wrap items-end gap-2">
        <LabelledInput
          label="Add a part by number"
          className="input w-56 max-w-full font-mono"
          placeholder="04465-02220"
          value={number}
          onChange={setNumber}
        />
        <LabelledInput
          label="Quantity"
          className="input w-24"
          inputMode="numeric"
          value={qty}
          onChange={setQty}
        />
        <button
          type="submit"
          className="btn btn-outline"
          disabled={!number.trim() || setItem.isPending}
        >
          Add to list
        </button>
        <FormError message={findError} className="w-full text-sm text-error" />
      </form>

      {error && (
        <div role="alert" className="alert alert-error">
          {error.message}
        </div>
      )}

      {list.lines.length === 0 ? (
        <p className="text-base-content/75">This list is empty: add parts by their number above.</p>
      ) : (
        <DataTable
          label={`Parts of ${list.name}`}
          columns={columns}
          rows={list.lines}
          rowKey={(l) => l.productId}
          rowTestId="list-line"
        />
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-primary"
          disabled={addToCart.isPending || list.lines.length === 0}
          onClick={() =>
            addToCart.mutate(undefined, {
              onSuccess: (added) => {
                notify.success(`${plural(added.added, "part")} put in your cart`);
                for (const note of added.notes) notify.error(note.message);
              },
            })
          }
        >
          Add the list to the cart
        </button>
        <Link to={paths.myLists} className="btn btn-ghost">
          All my lists
        </Link>
        <Link to={paths.cart} className="btn btn-ghost">
          Go to cart
        </Link>
      </div>
    </div>
  );
}
