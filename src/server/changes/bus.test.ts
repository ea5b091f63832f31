import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { startTestChangeBus } from "../../../tests/support/change-bus";
import { CATALOG_CHANNEL, type ChannelChange } from "./listener";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** A subscriber that writes down what it was told. */
function recorder() {
  const told: (ChannelChange | "listening" | "deaf")[] = [];
  return {
    told,
    invalidate: (topic: ChannelChange) => void told.push(topic),
    setListening: (listening: boolean) => void told.push(listening ? "listening" : "deaf"),
  };
}

test("each subscriber hears its own topics, in the order it subscribed, and a late one is told the bus hears", async () => {
  const bus = startTestChangeBus(database);
  const catalog = recorder();
  const prices = recorder();
  const order: string[] = [];
  try {
    bus.subscribe(["stock", "catalog"], catalog);
    bus.subscribe(["catalog"], { invalidate: () => void order.push("second") });
    bus.subscribe(["prices"], prices);
    await expect.poll(() => catalog.told, { timeout: 10_000 }).toContain("listening");

    const late = recorder();
    bus.subscribe(["sessions"], late);
    expect(late.told).toEqual(["listening"]);

    for (const topic of ["prices", "catalog", "sessions"]) {
      await database.pool.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, topic]);
    }
    // Notifications arrive in commit order: once the last is heard, the others were.
    await expect.poll(() => late.told, { timeout: 10_000 }).toEqual(["listening", "sessions"]);
    expect(catalog.told.filter((t) => t !== "listening")).toEqual(["catalog"]);
    expect(prices.told.filter((t) => t !== "listening")).toEqual(["prices"]);
    expect(order).toEqual(["second"]);
  } finally {
    await bus.stop();
  }
});
