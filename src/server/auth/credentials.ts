import { randomUUID } from "node:crypto";
import type { DbOrTx } from "../db/database";
import { account } from "./tables";

/**
 * An email/password sign-in for an existing user, with its scrypt hash (better-auth/crypto's
 * `hashPassword`), as Better Auth's sign-up writes it: the demo accounts are made this way.
 */
export async function insertCredentialAccount(
  tx: DbOrTx,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await tx.insert(account).values({
    id: randomUUID(),
    accountId: userId,
    providerId: "credential",
    userId,
    password: passwordHash,
  });
}
