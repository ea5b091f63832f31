import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { orderCreateFields } from "#contract/orders";
import { DeliveryFields } from "../../../components/delivery-fields";

const contactSchema = orderCreateFields.pick({ phonrNo: true, Address: true });
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
  /** The address and phone are the chosen saved address's (read-only). */
  fromBook?: boolean;
  /** False until the total to pay is known: the order cannot be confirmed before. */
  ready?: boolean;
  onSubmit(contact: OrderContact): void;
  onCancel(): void;
}

/** The order modal's form: who orders (read-only, from the session), address and phone. */
export function OrderForm({
  customer,
  saved,
  refusal,
  busy,
  fromBook = false,
  ready = true,
  onSubmit,
  onCancel,
}: OrderFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<OrderContact>({
    resolver: zodResolver(contactSchema),
    defaultValues: saved,
    // My Info may arrive after the form: fill it in, keeping whatever was typed already; a
    // saved address chosen above replaces them.
    values: saved,
    resetOptions: { keepDirtyValues: !fromBook },
  });
  return (
    <form noValidate className="flex flex-col gap-3" onSubmit={handleSubmit(onSubmit)}>
      <DeliveryFields
        customer={customer}
        address={register("Address")}
        phone={register("phonrNo")}
        addressError={errors.Address?.message}
        phoneError={errors.phonrNo?.message}
        fromBook={fromBook}
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
        <button type="submit" className="btn btn-primary" disabled={busy || !ready}>
          {busy && <span className="loading loading-spinner loading-sm" />}
          Confirm order
        </button>
      </div>
    </form>
  );
}
