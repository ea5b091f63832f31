import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/database";
import type { MailContent } from "../mail/layout";
import type { Mailer } from "../mail/mailer";
import { user } from "./tables";

/** An admin as the store's own notices address them. */
export interface StoreAdmin {
  id: string;
  email: string;
  name: string;
}

/** Every admin: whom the store's own notices (low stock, warranty deadlines, webhooks) go to. */
export function storeAdmins(tx: DbOrTx): Promise<StoreAdmin[]> {
  return tx
    .select({ id: user.id, email: user.email, name: user.name })
    .from(user)
    .where(eq(user.role, "admin"));
}

/**
 * Puts a mail to every admin in the outbox of the caller's transaction, each under its own event
 * key (`keyOf`: the same event mails an admin once, however often it is reported).
 */
export async function mailAdmins(
  tx: DbOrTx,
  mailer: Pick<Mailer, "sendIn">,
  mailFor: (admin: StoreAdmin) => MailContent,
  keyOf: (admin: StoreAdmin) => string,
): Promise<void> {
  for (const admin of await storeAdmins(tx)) {
    await mailer.sendIn(tx, { to: admin.email, ...mailFor(admin) }, keyOf(admin));
  }
}
