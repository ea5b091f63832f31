import { useState } from "react";
import { useNavigate } from "react-router";
import { QUOTE_NOTE_MAX } from "#contract/quotes";
import { paths } from "#contract/paths";
import { notify } from "../../../lib/notify";
import { useRequestQuote } from "../api/quotes";
import { FormError } from "../../../components/form-field";

/**
 * On the cart page, for a signed-in customer with something in the cart: ask for a quote for the
 * whole cart, with a note (quantities, delivery, anything). The cart stays as it is.
 */
export function RequestQuote() {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const request = useRequestQuote();
  const navigate = useNavigate();
  if (!open) {
    return (
      <div className="flex flex-col items-start gap-2 rounded-box border border-base-300 p-5">
        <p className="text-sm">
          Buying in quantity? Ask us for a price for everything in your cart.
        </p>
        <button type="button" className="btn btn-outline" onClick={() => setOpen(true)}>
          Request a quote
        </button>
      </div>
    );
  }
  return (
    <form
      className="flex flex-col gap-3 rounded-box border border-base-300 p-5"
      onSubmit={(e) => {
        e.preventDefault();
        request.mutate(note.trim(), {
          onSuccess: (quote) => {
            notify.success(`Quote ${quote.reference} requested: we will email you its prices`);
            void navigate(paths.quote.to(quote.id));
          },
        });
      }}
    >
      <h2 className="text-lg font-bold">Request a quote</h2>
      <p className="text-sm text-base-content/75">
        We price every part in your cart at these quantities and email you the quote. Your cart
        stays as it is.
      </p>
      <label className="flex flex-col gap-1">
        <span className="text-sm font-medium">Note for us (optional)</span>
        <textarea
          className="textarea textarea-bordered w-full"
          rows={3}
          maxLength={QUOTE_NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </label>
      <FormError message={request.error?.message} />
      <div className="flex gap-2">
        <button type="submit" className="btn btn-primary" disabled={request.isPending}>
          Send the request
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
