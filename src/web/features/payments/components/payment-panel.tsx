import { lazy, Suspense, useState } from "react";
import { Link } from "../../../components/link";
import { paymentMessages } from "#contract/payments";
import { paths } from "#contract/paths";
import { QueryError } from "../../../components/query-error";
import { Spinner } from "../../../components/spinner";
import { formatPrice } from "../../../lib/format";
import { useSiteConfig } from "../../../lib/use-site-config";
import { useMarkOrderPaid, usePaymentIntent } from "../api/payments";
import { TestCardForm } from "./test-card-form";

const StripeCardForm = lazy(async () => ({
  default: (await import("./stripe-card-form")).StripeCardForm,
}));

interface PaymentPanelProps {
  order: { _id: string; productId: string | null; total: number; currency: string };
}

/** Card payment for one unpaid order: secret first, then the card, then the server's check. */
export function PaymentPanel({ order }: PaymentPanelProps) {
  const site = useSiteConfig().data;
  const intent = usePaymentIntent(order._id, Boolean(site));
  const markPaid = useMarkOrderPaid(order._id);
  const [transactionId, setTransactionId] = useState<string>();

  const onPaid = async (id: string) => {
    await markPaid.mutateAsync({ transactionId: id, productId: order.productId ?? undefined });
    setTransactionId(id);
  };
  const payLabel = `Pay ${formatPrice(order.total, order.currency)}`;
  const clientSecret = intent.data?.clientSecret;

  return (
    <div className="flex flex-col gap-4">
      {intent.error && <QueryError error={intent.error} />}
      {intent.isPending && (
        <p className="text-sm text-base-content/70">
          <Spinner label="Preparing the payment" /> Preparing the payment…
        </p>
      )}
      {site?.payments.gateway === "stripe" && site.payments.publishableKey && clientSecret ? (
        <Suspense fallback={<Spinner label="Loading the card form" />}>
          <StripeCardForm
            publishableKey={site.payments.publishableKey}
            clientSecret={clientSecret}
            payLabel={payLabel}
            locked={Boolean(transactionId)}
            onPaid={onPaid}
          />
        </Suspense>
      ) : (
        <TestCardForm
          clientSecret={clientSecret}
          payLabel={payLabel}
          locked={Boolean(transactionId)}
          onPaid={onPaid}
        />
      )}
      {transactionId && (
        <div role="status" className="alert alert-success">
          <div>
            <p className="font-semibold">{paymentMessages.completed}</p>
            <p className="text-sm break-all">
              Your transaction id: <span className="font-mono">{transactionId}</span>
            </p>
            <Link to={paths.order.to(order._id)} className="btn mt-2 btn-sm">
              View your order
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
