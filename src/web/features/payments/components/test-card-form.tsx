import { useState } from "react";
import { FormField } from "../../../components/form-field";
import { ApiError } from "../../../lib/api-client";
import { confirmTestCard } from "../api/payments";
import {
  checkCardInput,
  digitsOnly,
  formatCardNumber,
  formatExpiry,
  type CardErrors,
} from "../card-input";

interface TestCardFormProps {
  clientSecret: string | undefined;
  payLabel: string;
  /** While a success message shows, the pay button stays disabled (SPEC section 4). */
  locked: boolean;
  onPaid(transactionId: string): Promise<void>;
}

/** The built-in gateway's card form: Stripe's test cards, formatted and checked as you type. */
export function TestCardForm({ clientSecret, payLabel, locked, onPaid }: TestCardFormProps) {
  const [card, setCard] = useState({ number: "", expiry: "", cvc: "" });
  const [errors, setErrors] = useState<CardErrors>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [cardError, setCardError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const set = (field: keyof typeof card, value: string) => {
    const next = { ...card, [field]: value };
    setCard(next);
    setErrors(checkCardInput(next));
  };
  const shown = (field: keyof CardErrors) => (touched[field] ? errors[field] : undefined);

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const found = checkCardInput(card);
        setErrors(found);
        setTouched({ number: true, expiry: true, cvc: true });
        if (!clientSecret || Object.keys(found).length > 0) return;
        setBusy(true);
        setCardError(undefined);
        try {
          const [mm = "0", yy = "0"] = formatExpiry(card.expiry).split(" / ");
          const result = await confirmTestCard({
            clientSecret,
            number: digitsOnly(card.number),
            expMonth: Number(mm),
            expYear: Number(yy),
            cvc: card.cvc,
          });
          await onPaid(result.transactionId);
        } catch (err) {
          setCardError(err instanceof ApiError ? err.message : "The payment did not go through.");
        } finally {
          setBusy(false);
        }
      }}
    >
      <FormField
        label="Card number"
        name="cardnumber"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        value={card.number}
        onChange={(e) => set("number", formatCardNumber(e.target.value))}
        onBlur={() => setTouched((t) => ({ ...t, number: true }))}
        error={shown("number")}
      />
      <div className="grid grid-cols-2 gap-4">
        <FormField
          label="Expiry (MM / YY)"
          name="exp-date"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          value={card.expiry}
          onChange={(e) => set("expiry", formatExpiry(e.target.value))}
          onBlur={() => setTouched((t) => ({ ...t, expiry: true }))}
          error={shown("expiry")}
        />
        <FormField
          label="CVC"
          name="cvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          maxLength={4}
          value={card.cvc}
          onChange={(e) => set("cvc", digitsOnly(e.target.value))}
          onBlur={() => setTouched((t) => ({ ...t, cvc: true }))}
          error={shown("cvc")}
        />
      </div>
      {cardError && (
        <p role="alert" className="font-medium text-error">
          {cardError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={!clientSecret || busy || locked}>
        {busy && <span className="loading loading-spinner loading-sm" />}
        {payLabel}
      </button>
      <p className="text-xs text-base-content/70">
        Test cards: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000
        9995 has insufficient funds. Any future expiry and any 3-digit CVC.
      </p>
    </form>
  );
}
