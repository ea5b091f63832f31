import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { placeTestOrder } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { hearCatalogChannel } from "../../../tests/support/catalog-channel";
import { appForTests } from "../../../tests/support/store";
import { user } from "../users/tables";

/**
 * The session caches (session-cache.ts) are cleared by NOTIFY 'sessions' when a user changes
 * what a session shows or is removed (migrations 0039 and 0040), not at every write to the
 * user's row: the order path moves the customer's revision on with every cart change and
 * placement, and each of those clearing every process's cache would make it useless.
 */
const { t } = appForTests({ shipsToTestAddress: true });

test("a cart change, an order and a profile edit send no 'sessions'; a new name and a removal do", async () => {
  // It counts every notification: a reconnect would lose one (catalog-channel.ts).
  const channel = hearCatalogChannel(t, { pingMs: 10_000 });
  const sessions = () => channel.heard("sessions");
  const db = t.database.db;
  try {
    await expect.poll(channel.listening, { timeout: 30_000 }).toBe(true);
    const me = await signUp(t.app);
    const [row] = await db.select().from(user).where(eq(user.email, me.email));
    const p = await insertProduct(db, { minimumOrder: 1, availableQuantity: 10 });
    // Whatever the sign-up sent has been heard once a notification sent after it is (the
    // channel delivers in commit order).
    const stock = channel.heard("stock");
    await t.database.pool.query("select pg_notify('catalog_changed', 'stock')");
    await expect.poll(() => channel.heard("stock"), { timeout: 30_000 }).toBe(stock + 1);
    const before = sessions();
    const headers = { cookie: me.cookie };
    const cart = await t.app.inject({
      method: "PUT",
      url: `/api/cart/items/${p.id}`,
      headers,
      payload: { qty: 1 },
    });
    expect(cart.statusCode, cart.body).toBe(200);
    const order = await placeTestOrder(t.app, me, p.id, 1);
    expect(order.statusCode, order.body).toBe(201);
    await db.update(user).set({ education: "Night school" }).where(eq(user.id, row!.id));
    const [moved] = await db.select().from(user).where(eq(user.id, row!.id));
    expect(moved!.revision).toBe(row!.revision + 2);
    // Notifications come in commit order: had any write above sent one, this would be the second.
    await db.update(user).set({ name: "Renamed Buyer" }).where(eq(user.id, row!.id));
    await expect.poll(sessions, { timeout: 30_000 }).toBe(before + 1);
    await db.execute(sql`delete from "user" where id = ${row!.id}`);
    await expect.poll(sessions, { timeout: 30_000 }).toBe(before + 2);
  } finally {
    await channel.stop();
  }
});
