import { AddressBook } from "../../../components/address-book";
import { useAddAddress, useAddresses, useRemoveAddress, useUpdateAddress } from "../api/addresses";

/**
 * My Info: the delivery addresses checkout offers, one of them the default (it also prices the
 * one-product order's shipping and tax). Add, edit, make default, remove.
 */
export function MyAddressBook({ customerName }: { customerName: string }) {
  const api = {
    list: useAddresses(),
    add: useAddAddress(),
    update: useUpdateAddress(),
    remove: useRemoveAddress(),
  };
  return <AddressBook owner={{ kind: "person", name: customerName }} api={api} />;
}
