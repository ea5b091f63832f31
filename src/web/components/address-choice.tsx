import { useState, type ReactNode } from "react";
import type { Address, AddressInput } from "#contract/addresses";
import type { CompanyAddress } from "#contract/companies";
import { AddressForm } from "./address-form";

/** The customer's address book, as a route hands it over (it belongs to My Info). */
export interface AddressBookPort {
  /** Undefined while it loads. */
  addresses: Address[] | undefined;
  add: (input: AddressInput) => Promise<Address>;
  adding: boolean;
  /**
   * The ship-to addresses of the customer's company, offered beside their own ([] without a
   * company, or for a viewer, who cannot order); undefined while they load.
   */
  companyAddresses: CompanyAddress[] | undefined;
}

/**
 * The saved address an order goes to, as the first one the customer would pick: the own
 * default, else the first own, else the company's first ship-to address. `picked` is kept while
 * it is still in the book (an address removed elsewhere falls back).
 */
export function chosenAddressId(
  addresses: Address[],
  companyAddresses: CompanyAddress[],
  picked: string | undefined,
): string | undefined {
  const all = [...addresses, ...companyAddresses];
  if (picked && all.some((a) => a.id === picked)) return picked;
  return (addresses.find((a) => a.isDefault) ?? addresses[0] ?? companyAddresses[0])?.id;
}

/**
 * Where an order goes (checkout, the product page's order dialog, a quote's acceptance): one of
 * the saved addresses or the company's ship-to addresses, or a new one added to the address
 * book (and chosen). Every order goes to a saved address, so shipping and tax are charged
 * (docs/ordering.md, "Where it goes"). Renders its own form for a new address: put it outside
 * any other form.
 */
export function AddressChoice(props: {
  /** The address book and the company's ship-to addresses ("Loading…" while either loads). */
  book: AddressBookPort;
  /** The chosen address's id (`chosenAddressId`). */
  value: string | undefined;
  onChange: (addressId: string) => void;
  /** Prefills a new address's name. */
  customerName?: string;
  idPrefix: string;
}) {
  const { addresses, companyAddresses } = props.book;
  if (addresses === undefined || companyAddresses === undefined) {
    return <p className="text-sm text-base-content/75">Loading your addresses…</p>;
  }
  return <Choice {...props} addresses={addresses} companyAddresses={companyAddresses} />;
}

function Choice({
  addresses,
  companyAddresses,
  value,
  onChange,
  book,
  customerName,
  idPrefix,
}: Parameters<typeof AddressChoice>[0] & {
  addresses: Address[];
  companyAddresses: CompanyAddress[];
}) {
  const anyAddress = addresses.length + companyAddresses.length > 0;
  const [adding, setAdding] = useState(!anyAddress);
  const option = (id: string, text: ReactNode) => (
    <label
      key={id}
      className="flex cursor-pointer items-start gap-3 rounded-box border border-base-300 p-3 text-sm"
    >
      <input
        type="radio"
        name={`${idPrefix}-address`}
        className="radio radio-sm mt-0.5"
        checked={value === id}
        onChange={() => onChange(id)}
      />
      <span>{text}</span>
    </label>
  );
  return (
    <>
      {anyAddress && (
        <fieldset className="flex flex-col gap-2">
          <legend className="sr-only">Deliver to</legend>
          {addresses.map((a) => option(a.id, a.formatted))}
          {companyAddresses.map((a) =>
            option(
              a.id,
              <>
                <span className="mr-2 badge badge-outline badge-sm">{a.companyName} ship-to</span>
                {a.formatted}
              </>,
            ),
          )}
        </fieldset>
      )}
      {adding ? (
        <div className="rounded-box border border-base-300 p-4">
          <h3 className="mb-3 font-semibold">
            {anyAddress ? "A new address" : "Where should we deliver?"}
          </h3>
          <AddressForm
            idPrefix={idPrefix}
            defaultValues={{ name: customerName ?? "", isDefault: addresses.length === 0 }}
            defaultAddressCountry={addresses.find((a) => a.isDefault)?.country}
            submitLabel="Use this address"
            pending={book.adding}
            onCancel={anyAddress ? () => setAdding(false) : undefined}
            onSubmit={async (input) => {
              const added = await book.add(input);
              onChange(added.id);
              setAdding(false);
            }}
          />
        </div>
      ) : (
        <button type="button" className="btn w-fit btn-sm" onClick={() => setAdding(true)}>
          Deliver to a new address
        </button>
      )}
    </>
  );
}
