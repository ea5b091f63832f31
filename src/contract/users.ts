import { z } from "zod";
import { pagingQuery } from "./common";
import { optionalPhoneNumberSchema } from "./phone";
import { shortText, text } from "./text";

export const roles = ["admin", "user"] as const;
export type Role = (typeof roles)[number];

/** The signed-in user's profile (SPEC section 3). `name` is the display name. */
export const profileSchema = z.object({
  _id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(roles),
  education: z.string(),
  address: z.string(),
  phoneNo: z.string(),
  linkedIn: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

/** What a user may change of their profile: name, email and role are not among it. */
export const profileUpdateSchema = z.strictObject({
  education: shortText(200),
  address: shortText(300),
  phoneNo: optionalPhoneNumberSchema,
  linkedIn: shortText(200).refine(
    (v) => v === "" || /^https:\/\/([a-z0-9-]+\.)*linkedin\.com\//i.test(v),
    {
      message: "Use a https://linkedin.com/… address",
    },
  ),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const adminFlagSchema = z.object({ admin: z.boolean() });

/** Users shown per page on the admin's All Users page (the API's default `limit`). */
export const USERS_PAGE_SIZE = 20;

/** The exact texts an admin sees when a removal is refused (DESIGN section 4). */
export const userMessages = {
  notFound: "User not found",
  cannotRemoveSelf: "You cannot remove your own account",
  lastAdmin: "The last admin cannot be removed",
  lastAdminDemote: "The last admin cannot stop being an admin",
} as const;

/** One row of the admin's user list: who they are and their role, nothing from the profile. */
export const userListItemSchema = z.object({
  _id: z.string(),
  email: z.string(),
  /** The display name. */
  name: z.string(),
  role: z.enum(roles),
  /**
   * Their own customer group (docs/pricing.md "A customer's own group"): what they pay while in
   * no company. Retail unless an admin chose another.
   */
  customerGroupId: z.uuid(),
  createdAt: z.iso.datetime({ offset: true }),
  /** When the SMTP server last refused this address for good (a 5xx answer); null when it does not bounce. */
  emailBouncedAt: z.iso.datetime({ offset: true }).nullable(),
  /** That refusal's answer ("550 5.1.1 … no such user"), first line; null when it does not bounce. */
  emailBounce: z.string().max(300).nullable(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

/** `GET /api/users`: newest first, paged, `q` matches email or name (case-insensitive). */
export const usersQuerySchema = pagingQuery(USERS_PAGE_SIZE).extend({
  q: text().trim().max(100).optional(),
});
export type UsersQuery = z.infer<typeof usersQuerySchema>;

export const userEmailParamsSchema = z.object({
  email: text()
    .trim()
    .max(254)
    .pipe(z.email({ message: "Provide a valid Email" })),
});

/** Ids are Better Auth's random letters and digits (UUIDs for the demo accounts): nothing else. */
export const userIdParamsSchema = z.object({
  id: text()
    .min(1, "Malformed id")
    .max(64, "Malformed id")
    .regex(/^[A-Za-z0-9_-]+$/, "Malformed id"),
});

/** An admin's change to a user (its role, its bounce, its group): the user as it is now. */
const userChangedSchema = () => z.object({ success: z.literal(true), user: userListItemSchema });

export const madeAdminSchema = userChangedSchema();
export type MadeAdmin = z.infer<typeof madeAdminSchema>;

/** `DELETE /api/users/:id/email-bounce` ("Mark deliverable"): the user, no longer bouncing. */
export const markedDeliverableSchema = userChangedSchema();
export type MarkedDeliverable = z.infer<typeof markedDeliverableSchema>;

/** `PUT /api/users/:id/customer-group`: the customer's own group (an admin chooses it). */
export const userCustomerGroupSchema = z.strictObject({
  customerGroupId: z.uuid({ message: "Customer group not found" }),
});
export type UserCustomerGroup = z.infer<typeof userCustomerGroupSchema>;

/** `PUT /api/users/:id/customer-group`: the user, in their group. */
export const customerGroupSetSchema = userChangedSchema();
export type CustomerGroupSet = z.infer<typeof customerGroupSetSchema>;

export const userRemovedSchema = z.object({
  success: z.literal(true),
  /** How many of the user's unpaid orders were cancelled (their stock returned). */
  cancelledOrders: z.number().int().min(0),
});
export type UserRemoved = z.infer<typeof userRemovedSchema>;
