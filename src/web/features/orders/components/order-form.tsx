import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { orderCreateSchema } from "#contract/orders";
import { DeliveryFields } from "../../../components/delivery-fields";

const contactSchema = orderCreateSchema.pick({ phonrNo: true, Address: true });
export interface OrderContact {
  phonrNo: string;
  Address: string;
}

interface OrderFormProps {
  customer: { name: string; email: string };
  /** The address and phone saved in My Info, to start from. */
  saved: OrderContact;
  /** Why the server refused the order, shown without clearing what was typed. */
  refusal?: string;
  busy: boolean;
  onSubmit(contact: OrderContact): void;
  onCancel(): void;
}

/** The order modal's form: who orders (read-only, from the session), address and phone. */
export function OrderForm({ customer, saved, refusal, busy, onSubmit, onCancel }: OrderFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<OrderContact>({
    resolver: zodResolver(contactSchema),
    defaultValues: saved,
    // My Info may arrive after the form: fill it in, keeping whatever was typed already.
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  return (
    <form noValidate className="flex flex-col gap-3" onSubmit={handleSubmit(onSubmit)}>
      <DeliveryFields
        customer={customer}
        address={register("Address")}
        phone={register("phonrNo")}
        addressError={errors.Address?.message}
        phoneError={errors.phonrNo?.message}
      />
      {refusal && (
        <p role="alert" className="alert text-sm alert-error">
          {refusal}
        </p>
      )}
      <div className="modal-action">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy && <span className="loading loading-spinner loading-sm" />}
          Confirm order
        </button>
      </div>
    </form>
  );
}
