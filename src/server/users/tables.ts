import { sql } from "../db/sql";
import { bigint, boolean, check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { MAX_IMAGE_URL_LENGTH, MAX_NAME_LENGTH } from "../../contract/constants";
import { RETAIL_GROUP_ID } from "../../contract/customer-groups";
import { roles } from "../../contract/users";
import { timestamps } from "../db/columns";

export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    /** The display name. */
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    role: text("role", { enum: roles }).notNull().default("user"),
    education: text("education").notNull().default(""),
    address: text("address").notNull().default(""),
    phoneNo: text("phone_no").notNull().default(""),
    linkedIn: text("linked_in").notNull().default(""),
    /** Better Auth's two-factor plugin: TOTP is on for this account. */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /**
     * Moves on with every change made under the customer's lock (cart, addresses, orders): a
     * placement that read the customer without the lock writes only while it is unchanged
     * (docs/decisions/011-checkout-workflow.md, "Placed in two statements").
     */
    revision: bigint("revision", { mode: "number" }).notNull().default(0),
    /**
     * Their own customer group (migration 0081, `customer_groups`; set on Manage users): what they
     * pay while in no company (a member pays as their company's group). Retail by default.
     */
    customerGroupId: uuid("customer_group_id").notNull().default(RETAIL_GROUP_ID),
    ...timestamps,
  },
  (t) => [
    index("user_customer_group_idx").on(t.customerGroupId),
    check("user_role_valid", sql`${t.role} in ('admin', 'user')`),
    check("user_name_length", sql`char_length(${t.name}) <= ${sql.raw(String(MAX_NAME_LENGTH))}`),
    check(
      "user_image_length",
      sql`char_length(${t.image}) <= ${sql.raw(String(MAX_IMAGE_URL_LENGTH))}`,
    ),
  ],
);

/** The account a row belongs to (`user_id`): removing the account removes the row. */
export const ownerUserId = () =>
  text("user_id")
    .notNull()
    .references(() => user.id, { onDelete: "cascade" });
