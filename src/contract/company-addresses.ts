import { z } from "zod";
import { addressPatchSchema, addressSchema } from "./addresses";

/**
 * A company's ship-to addresses (docs/company-addresses.md): the address book's fields and
 * rules (`companyAddressInputSchema` in ./addresses), kept per company. Its members deliver to
 * them at checkout by sending the address's id as `addressId`, as they do their own.
 */

export const MAX_COMPANY_ADDRESSES = 100;

export const companyAddressMessages = {
  notFound: "Ship-to address not found",
  tooMany: (max: number) => `A company holds at most ${max} ship-to addresses; remove one first`,
  ownersOnly: "Only the company's owners manage its ship-to addresses",
  notYourCompany:
    "This ship-to address is not one of your company's: choose another delivery address",
} as const;

/** PATCH: any of the fields; the whole address is checked again after the change. */
export const companyAddressPatchSchema = addressPatchSchema.omit({ isDefault: true });
export type CompanyAddressPatch = z.infer<typeof companyAddressPatchSchema>;

export const companyAddressSchema = addressSchema.omit({ isDefault: true }).extend({
  companyId: z.uuid(),
  /** The company's name, to label the address where it is offered (checkout). */
  companyName: z.string(),
});
export type CompanyAddress = z.infer<typeof companyAddressSchema>;

export const companyAddressParamsSchema = z.object({
  id: z.uuid({ message: "Malformed id" }),
  addressId: z.uuid({ message: "Malformed id" }),
});
