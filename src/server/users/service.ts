import { and, desc, eq, ne, or, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import { customerGroupMessages } from "../../contract/customer-groups";
import {
  userMessages,
  type Profile,
  type Role,
  type ProfileUpdate,
  type UserListItem,
  type UsersQuery,
} from "../../contract/users";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { emailBounces } from "../email-bounces/tables";
import { user } from "./tables";
import { bounceOf, clearBounce, type EmailBounce } from "../email-bounces/service";
import { ACCOUNT_GONE_MESSAGE, fieldError, notFound, unprocessable } from "../errors";
import { containsPattern } from "../db/like";
import { pageOf } from "../db/page";

type UserRow = typeof user.$inferSelect;

function toProfile(row: UserRow): Profile {
  return {
    _id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    education: row.education,
    address: row.address,
    phoneNo: row.phoneNo,
    linkedIn: row.linkedIn,
  };
}

const listColumns = {
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  customerGroupId: user.customerGroupId,
  createdAt: user.createdAt,
};

function toListItem(
  row: Pick<UserRow, keyof typeof listColumns>,
  bounce: EmailBounce | null | undefined,
): UserListItem {
  return {
    _id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    customerGroupId: row.customerGroupId,
    createdAt: row.createdAt.toISOString(),
    emailBouncedAt: bounce ? bounce.bouncedAt.toISOString() : null,
    emailBounce: bounce ? bounce.answer : null,
  };
}

/** A list row with its address's bounce (email-bounces), looked up by the address. */
async function withBounce(
  tx: DbOrTx,
  row: Pick<UserRow, keyof typeof listColumns>,
): Promise<UserListItem> {
  return toListItem(row, await bounceOf(tx, row.email));
}

/**
 * Locks the customer's row for the rest of the transaction: their placements and cart changes
 * queue up behind each other (the duplicate rule, the hold limits and the cart's size cannot
 * race). The lock is an update that moves the customer's revision on, so a placement that read
 * them without the lock sees the change and reads again (checkout/write.ts). A removed account is
 * told so.
 */
export async function lockCustomer(tx: DbOrTx, userId: string): Promise<void> {
  const { rows } = await tx.execute<{ id: string }>(lockCustomerSql(userId));
  if (!rows[0]) throw notFound(ACCOUNT_GONE_MESSAGE);
}

/**
 * The query `lockCustomer` runs (one row, the customer's `id`, or none: the account is gone), for
 * a statement that does more once the row is locked (checkout counts the placement in it). With
 * `ifRevision`, only while the customer's revision is still that one (else no row: an unlocked
 * placement's write, checkout/write.ts).
 */
export function lockCustomerSql(userId: string, ifRevision?: number): SQL {
  return sql`update "user" set revision = revision + 1
              where id = ${userId}${ifRevision === undefined ? sql`` : sql` and revision = ${ifRevision}`}
             returning id`;
}

/** Keeps an order's phone and address in the customer's profile (checkout's "save" box). */
export async function saveDeliveryToProfile(
  tx: DbOrTx,
  userId: string,
  delivery: { phone: string; address: string },
): Promise<void> {
  await tx
    .update(user)
    .set({ phoneNo: delivery.phone, address: delivery.address, updatedAt: new Date() })
    .where(eq(user.id, userId));
}

/** ADMIN_EMAILS: a proven listed address becomes an admin (no audit: the configuration did it). */
export async function promoteListedAdmin(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(user)
    .set({ role: "admin", updatedAt: new Date() })
    .where(and(eq(user.id, userId), ne(user.role, "admin")));
}

/** The profile's own fields emptied (a social sign-in reclaiming an unverified account). */
export async function clearProfile(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(user)
    .set({ education: "", address: "", phoneNo: "", linkedIn: "", updatedAt: new Date() })
    .where(eq(user.id, userId));
}

/** A new account's row (Better Auth's sign-up writes its own; the demo accounts are made so). */
export async function insertUser(
  tx: DbOrTx,
  row: { id: string; email: string; name: string; role: Role; emailVerified: boolean },
): Promise<void> {
  await tx.insert(user).values(row);
}

/**
 * Locks the user to remove and every admin, in one statement in id order: two admins removing
 * each other at once queue up instead of deadlocking, and the second one sees the first's
 * removal before it counts the admins, so the last admin always stays.
 */
export async function lockForRemoval(tx: DbOrTx, targetId: string) {
  const locked = await tx
    .select({ id: user.id, role: user.role, name: user.name, email: user.email })
    .from(user)
    .where(or(eq(user.id, targetId), eq(user.role, "admin")))
    .orderBy(user.id)
    .for("update");
  const target = locked.find((u) => u.id === targetId);
  if (!target) throw notFound(userMessages.notFound);
  if (target.role === "admin" && locked.filter((u) => u.role === "admin").length <= 1) {
    throw unprocessable(userMessages.lastAdmin);
  }
  return target;
}

/** The account is gone: its sessions and sign-ins with it (cascade), its paid orders kept. */
export async function deleteUser(tx: DbOrTx, id: string): Promise<void> {
  await tx.delete(user).where(eq(user.id, id));
}

export function createUserService(db: Db) {
  /**
   * Makes the user with this email an admin (again is harmless and not logged); undefined when
   * there is none. With an `actor` (an admin in the dashboard) the change is audit-logged in
   * the same transaction; the admin command passes none.
   */
  const grantAdmin = async (email: string, actor?: AuditActor): Promise<UserListItem | undefined> =>
    db.transaction(async (tx) => {
      const [target] = await tx
        .select(listColumns)
        .from(user)
        .where(eq(user.email, email.trim().toLowerCase()))
        .for("update");
      if (!target) return undefined;
      if (target.role === "admin") return withBounce(tx, target);
      const [row] = await tx
        .update(user)
        .set({ role: "admin", updatedAt: sql`now()` })
        .where(eq(user.id, target.id))
        .returning(listColumns);
      if (actor) {
        await recordAdminAction(tx, {
          actor,
          action: "user.make-admin",
          target: { type: "user", id: target.id },
          summary: `Made ${target.name} (${target.email}) an admin`,
        });
      }
      return withBounce(tx, row ?? target);
    });

  /**
   * An admin takes the admin role away from the user with this email (themself included), never
   * from the last admin. A customer stays a customer (harmless, not logged).
   */
  const revokeAdmin = async (actor: AuditActor, email: string): Promise<UserListItem> =>
    db.transaction(async (tx) => {
      const target = email.trim().toLowerCase();
      // The target and every admin, locked in id order (as in removal): two admins demoting
      // each other at once queue up, and the second sees the first's change before counting.
      const locked = await tx
        .select(listColumns)
        .from(user)
        .where(or(eq(user.email, target), eq(user.role, "admin")))
        .orderBy(user.id)
        .for("update");
      const row = locked.find((u) => u.email === target);
      if (!row) throw notFound(userMessages.notFound);
      if (row.role !== "admin") return withBounce(tx, row);
      if (locked.filter((u) => u.role === "admin").length <= 1) {
        throw unprocessable(userMessages.lastAdminDemote);
      }
      const [updated] = await tx
        .update(user)
        .set({ role: "user", updatedAt: sql`now()` })
        .where(eq(user.id, row.id))
        .returning(listColumns);
      await recordAdminAction(tx, {
        actor,
        action: "user.remove-admin",
        target: { type: "user", id: row.id },
        summary: `Took the admin role from ${row.name} (${row.email})`,
      });
      return withBounce(tx, updated ?? row);
    });

  return {
    async getProfile(userId: string): Promise<Profile | undefined> {
      const [row] = await db.select().from(user).where(eq(user.id, userId));
      return row ? toProfile(row) : undefined;
    },

    /** Changes only the editable profile fields; name, email and role stay as they are. */
    async updateProfile(userId: string, fields: ProfileUpdate): Promise<Profile | undefined> {
      const [row] = await db
        .update(user)
        .set({
          education: fields.education,
          address: fields.address,
          phoneNo: fields.phoneNo,
          linkedIn: fields.linkedIn,
          updatedAt: new Date(),
        })
        .where(eq(user.id, userId))
        .returning();
      return row ? toProfile(row) : undefined;
    },

    async isAdmin(email: string): Promise<boolean> {
      const [row] = await db
        .select({ role: user.role })
        .from(user)
        .where(eq(user.email, email.toLowerCase()));
      return row?.role === "admin";
    },

    /** Makes the user with this email an admin; false when there is no such user. */
    async makeAdmin(email: string): Promise<boolean> {
      return (await grantAdmin(email)) !== undefined;
    },

    grantAdmin,
    revokeAdmin,

    /** Every user, newest first, paged; `q` matches email or display name, case-insensitively. */
    async list(query: UsersQuery): Promise<{ items: UserListItem[]; total: number }> {
      const pattern = query.q ? containsPattern(query.q) : undefined;
      const filter = pattern
        ? or(sql`lower(${user.email}) like ${pattern}`, sql`lower(${user.name}) like ${pattern}`)
        : undefined;
      const { rows, total } = await pageOf(
        db,
        db
          .select({
            ...listColumns,
            bounce: { bouncedAt: emailBounces.bouncedAt, answer: emailBounces.smtpAnswer },
          })
          .from(user)
          // Emails are stored lower-cased (Better Auth), as are bouncing addresses.
          .leftJoin(emailBounces, eq(emailBounces.address, user.email))
          .where(filter)
          .orderBy(desc(user.createdAt), desc(user.id)),
        user,
        filter,
        query,
      );
      return { items: rows.map((r) => toListItem(r, r.bounce)), total };
    },

    /**
     * An admin puts a customer in a customer group of their own (Manage users): what they pay
     * while in no company (docs/pricing.md "A customer's own group"). Audit-logged with both
     * groups' names; the same group again is harmless and not logged. An unknown group: 400.
     */
    async setCustomerGroup(
      actor: AuditActor,
      targetId: string,
      groupId: string,
    ): Promise<UserListItem> {
      return db.transaction(async (tx) => {
        const [target] = await tx
          .select(listColumns)
          .from(user)
          .where(eq(user.id, targetId))
          .for("update");
        if (!target) throw notFound(userMessages.notFound);
        // The groups' names (pricing keeps the groups; this only reads them).
        const { rows } = await tx.execute<{ id: string; name: string }>(
          sql`select id, name from customer_groups where id in (${target.customerGroupId}, ${groupId})`,
        );
        const name = new Map(rows.map((r) => [r.id, r.name]));
        if (!name.has(groupId)) throw fieldError("customerGroupId", customerGroupMessages.notFound);
        if (target.customerGroupId === groupId) return withBounce(tx, target);
        const [row] = await tx
          .update(user)
          .set({ customerGroupId: groupId, updatedAt: sql`now()` })
          .where(eq(user.id, targetId))
          .returning(listColumns);
        await recordAdminAction(tx, {
          actor,
          action: "user.customer-group",
          target: { type: "user", id: targetId },
          summary: `Moved ${target.name} (${target.email}) from customer group ${name.get(target.customerGroupId)} to ${name.get(groupId)}`,
        });
        return withBounce(tx, row!);
      });
    },

    /**
     * "Mark deliverable": an admin takes the bounce mark off the user's address (the mailbox was
     * fixed), audit-logged with the answer it had. A user whose address is not marked stays as
     * they are (harmless, not logged).
     */
    async markDeliverable(actor: AuditActor, targetId: string): Promise<UserListItem> {
      return db.transaction(async (tx) => {
        const [target] = await tx.select(listColumns).from(user).where(eq(user.id, targetId));
        if (!target) throw notFound(userMessages.notFound);
        const cleared = await clearBounce(tx, target.email);
        if (cleared) {
          await recordAdminAction(tx, {
            actor,
            action: "user.mark-deliverable",
            target: { type: "user", id: target.id },
            summary: `Marked ${target.email} (${target.name}) deliverable; it had bounced on ${cleared.bouncedAt.toISOString()}: ${cleared.answer}`,
          });
        }
        return toListItem(target, undefined);
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
