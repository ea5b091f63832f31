import { z } from "zod";
import { idParamsSchema, nestedIdParams } from "./common";
import { addressPatchSchema, addressSchema } from "./addresses";
import { moneySchema } from "./pricing";
import { paymentTermsSchema, paymentTermsValues } from "./terms";
import { requiredName, shortText } from "./text";

/** Trade companies: members with roles, invitations by email, a price list. Money in currency units. */

export const companyRoles = ["owner", "buyer", "viewer"] as const;
export type CompanyRole = (typeof companyRoles)[number];

/** A company's owners and viewers see its invoices on account and what they owe; buyers do not. */
export const seesCompanyInvoices = (role: CompanyRole | null | undefined) =>
  role === "owner" || role === "viewer";

export const INVITATION_DAYS = 7;

export const companyMessages = {
  nameTaken: "A company with this name exists already",
  notFound: "Company not found",
  alreadyMember: "This account already belongs to a company",
  invitationInvalid: "This invitation link is not valid",
  invitationExpired: "This invitation has expired: ask for a new one",
  invitationUsed: "This invitation has been used already",
  wrongEmail: (email: string) =>
    `This invitation is for ${email}: sign in with that address to accept it`,
  adminsCannotJoin: "Admins cannot join a company",
  lastOwner: "A company keeps at least one owner: make someone else owner first",
  memberNotFound: "Member not found",
  invitationNotFound: "Invitation not found",
  priceListNotFound: "Price list not found",
  noChange: "Say what to change",
  viewerCannotOrder: "Viewers of a company see its orders but cannot place them",
} as const;

const optionalText = (max: number) =>
  shortText(max)
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional();

const companyFields = {
  name: requiredName(120),
  taxId: optionalText(40),
  /** card (the default: pays by card at checkout) or net15/net30/net60: on account (docs/terms.md). */
  paymentTerms: paymentTermsSchema.optional(),
  creditLimit: moneySchema("Credit limit").nullable().optional(),
  priceListId: z.uuid({ message: "Malformed price list id" }).nullable().optional(),
  /** Its customer group (docs/pricing.md); a new company is a garage unless said otherwise. */
  customerGroupId: z.uuid({ message: "Malformed customer group id" }).optional(),
};

export const companyCreateSchema = z.strictObject(companyFields);
export type CompanyCreate = z.input<typeof companyCreateSchema>;

export const companyUpdateSchema = z
  .strictObject({ ...companyFields, name: companyFields.name.optional() })
  .refine((v) => Object.keys(v).length > 0, { message: companyMessages.noChange });
export type CompanyUpdate = z.input<typeof companyUpdateSchema>;

export const companySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  taxId: z.string().nullable(),
  paymentTerms: z.enum(paymentTermsValues),
  creditLimit: z.number().nullable(),
  priceListId: z.uuid().nullable(),
  priceListName: z.string().nullable(),
  customerGroupId: z.uuid(),
  customerGroupName: z.string(),
  memberCount: z.number(),
  createdAt: z.string(),
});
export type Company = z.infer<typeof companySchema>;

export const companyMemberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(companyRoles),
  orderLimit: z.number().nullable(),
  monthlyLimit: z.number().nullable(),
  joinedAt: z.string(),
});
export type CompanyMember = z.infer<typeof companyMemberSchema>;

export const companyMemberUpdateSchema = z
  .strictObject({
    role: z.enum(companyRoles, { error: "Role is owner, buyer or viewer" }).optional(),
    orderLimit: moneySchema("Per-order limit").nullable().optional(),
    monthlyLimit: moneySchema("Monthly limit").nullable().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: companyMessages.noChange });
export type CompanyMemberUpdate = z.input<typeof companyMemberUpdateSchema>;

export const companyInvitationCreateSchema = z.strictObject({
  email: z
    .email({ error: "Enter a valid email address" })
    .max(254, "Enter a valid email address")
    .transform((e) => e.toLowerCase()),
  role: z.enum(companyRoles, { error: "Role is owner, buyer or viewer" }),
});
export type CompanyInvitationCreate = z.input<typeof companyInvitationCreateSchema>;

export const companyInvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(companyRoles),
  createdAt: z.string(),
  expiresAt: z.string(),
  acceptedAt: z.string().nullable(),
});
export type CompanyInvitation = z.infer<typeof companyInvitationSchema>;

export const companyInvitationAcceptSchema = z.strictObject({
  token: z.string().min(1, "The invitation link has no token").max(200),
});

export const companyMemberParamsSchema = idParamsSchema.extend({
  userId: z.string().min(1).max(100),
});
export const companyInvitationParamsSchema = nestedIdParams("invitationId");

/** `GET /api/company`: the caller's company (null: none). Members are listed to owners only. */
/**
 * A company's EU VAT number as VIES (the Commission's register) last answered it (docs/tax.md
 * "VIES"). `status`: `valid` / `invalid` as VIES last answered (`checkedAt`, its consultation
 * number and the trader's name it gave); `unanswered`: VIES has not answered yet (`lastFailure`
 * says why; the job tries again); `pending`: not asked yet. An answer is kept when a later
 * re-check goes unanswered (`lastFailure` then says so).
 */
export const vatCheckSchema = z.object({
  vatId: z.string(),
  status: z.enum(["pending", "valid", "invalid", "unanswered"]),
  checkedAt: z.string().nullable(),
  consultationNumber: z.string().nullable(),
  viesName: z.string().nullable(),
  viesAddress: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastFailure: z.string().nullable(),
});
export type VatCheck = z.infer<typeof vatCheckSchema>;

export const myCompanySchema = z.object({
  company: z
    .object({
      /** The company's own fields, then the caller's role and spending limits in it. */
      ...companySchema.pick({
        id: true,
        name: true,
        taxId: true,
        paymentTerms: true,
        creditLimit: true,
      }).shape,
      ...companyMemberSchema.pick({ role: true, orderLimit: true, monthlyLimit: true }).shape,
      hasPriceList: z.boolean(),
      /** What its invoices on account still owe (owners and viewers; null for buyers). */
      openInvoices: z.number().nullable(),
      /** The credit limit less the open invoices, never below 0 (null: no limit, or a buyer). */
      creditLeft: z.number().nullable(),
      members: z.array(companyMemberSchema).nullable(),
      /** Its EU VAT number's VIES check (owners only; null: none, or not an owner). */
      vatCheck: vatCheckSchema.nullable(),
    })
    .nullable(),
});
export type MyCompany = z.infer<typeof myCompanySchema>;

export const acceptedInvitationSchema = z.object({
  companyId: z.uuid(),
  companyName: z.string(),
  role: z.enum(companyRoles),
});

/**
 * A company's ship-to addresses (docs/companies.md): the address book's fields and
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

export const companyAddressParamsSchema = nestedIdParams("addressId");
