import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useState } from "react";

let stripePromise: Promise<Stripe | null> | undefined;
const getStripe = (publishableKey: string) => (stripePromise ??= loadStripe(publishableKey));

interface StripeCardFormProps {
  publishableKey: string;
  clientSecret: string;
  payLabel: string;
  locked: boolean;
  onPaid(transactionId: string): Promise<void>;
}

/** Stripe Elements, used when the store runs the Stripe gateway (loaded only then). */
export function StripeCardForm(props: StripeCardFormProps) {
  return (
    <Elements
      stripe={getStripe(props.publishableKey)}
      options={{ clientSecret: props.clientSecret }}
    >
      <StripeFields {...props} />
    </Elements>
  );
}

function StripeFields({ payLabel, locked, onPaid }: StripeCardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!stripe || !elements) return;
        setBusy(true);
        setError(undefined);
        const result = await stripe.confirmPayment({ elements, redirect: "if_required" });
        if (result.error) setError(result.error.message ?? "The payment did not go through.");
        else await onPaid(result.paymentIntent.id).catch((err: Error) => setError(err.message));
        setBusy(false);
      }}
    >
      <PaymentElement />
      {error && (
        <p role="alert" className="font-medium text-error">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={!stripe || busy || locked}>
        {busy && <span className="loading loading-spinner loading-sm" />}
        {payLabel}
      </button>
    </form>
  );
}
