import { eq, sql } from "drizzle-orm";
import type { Profile, ProfileUpdate } from "../../contract/users";
import type { DbOrTx } from "../db/database";
import { user } from "../db/schema";

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

export function createUserService(db: DbOrTx) {
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
      const rows = await db
        .update(user)
        .set({ role: "admin", updatedAt: sql`now()` })
        .where(eq(user.email, email.trim().toLowerCase()))
        .returning({ id: user.id });
      return rows.length > 0;
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
