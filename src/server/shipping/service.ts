import { asc, eq, inArray, and, notInArray } from "drizzle-orm";
import {
  shippingMessages,
  type ShippingMethodInput,
  type ShippingZone,
  type ShippingZoneInput,
} from "../../contract/shipping";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { shippingMethods, shippingZones } from "./tables";
import { notFound } from "../errors";
import { orderDeliveryPromise } from "./delivery-promise";
import { centsToUnits, unitsToCents } from "../money";

type ZoneRow = typeof shippingZones.$inferSelect;
type MethodRow = typeof shippingMethods.$inferSelect;

function toZone(zone: ZoneRow, methods: MethodRow[]): ShippingZone {
  return {
    id: zone.id,
    name: zone.name,
    countries: zone.countries,
    regions: zone.regions,
    methods: methods.map((m) => ({
      id: m.id,
      name: m.name,
      estimate: m.estimate,
      kind: m.kind,
      price: centsToUnits(m.priceCents),
      freeOver: m.freeOverCents === null ? null : centsToUnits(m.freeOverCents),
      bands: m.bands.map((b) => ({ upToGrams: b.upToGrams, price: centsToUnits(b.priceCents) })),
      transitMinDays: m.transitMinDays,
      transitMaxDays: m.transitMaxDays,
    })),
  };
}

/** A method as stored: only the fields its kind uses. */
function methodValues(m: ShippingMethodInput, zoneId: string, position: number) {
  return {
    zoneId,
    position,
    name: m.name,
    estimate: m.estimate,
    kind: m.kind,
    priceCents: m.kind === "weight" ? 0 : unitsToCents(m.price),
    freeOverCents: m.kind === "free_over" && m.freeOver !== null ? unitsToCents(m.freeOver) : null,
    bands:
      m.kind === "weight"
        ? m.bands.map((b) => ({ upToGrams: b.upToGrams, priceCents: unitsToCents(b.price) }))
        : [],
    transitMinDays: m.transitMinDays,
    transitMaxDays: m.transitMaxDays,
  };
}

/**
 * Admin: shipping zones and their methods, each zone edited as a whole (its methods in order).
 * A method that is kept keeps its id, so a customer who chose it is not asked again.
 */
export function createShippingService(db: Db) {
  async function load(tx: DbOrTx, ids?: string[]): Promise<ShippingZone[]> {
    const zones = await tx
      .select()
      .from(shippingZones)
      .where(ids ? inArray(shippingZones.id, ids) : undefined)
      .orderBy(asc(shippingZones.createdAt), asc(shippingZones.id));
    if (zones.length === 0) return [];
    const methods = await tx
      .select()
      .from(shippingMethods)
      .where(
        inArray(
          shippingMethods.zoneId,
          zones.map((z) => z.id),
        ),
      )
      .orderBy(asc(shippingMethods.position), asc(shippingMethods.id));
    return zones.map((z) =>
      toZone(
        z,
        methods.filter((m) => m.zoneId === z.id),
      ),
    );
  }

  async function writeMethods(tx: DbOrTx, zoneId: string, methods: ShippingMethodInput[]) {
    const keep = methods.flatMap((m) => (m.id ? [m.id] : []));
    await tx
      .delete(shippingMethods)
      .where(
        keep.length > 0
          ? and(eq(shippingMethods.zoneId, zoneId), notInArray(shippingMethods.id, keep))
          : eq(shippingMethods.zoneId, zoneId),
      );
    for (const [i, m] of methods.entries()) {
      const values = methodValues(m, zoneId, i);
      if (m.id) {
        const updated = await tx
          .update(shippingMethods)
          .set(values)
          .where(and(eq(shippingMethods.id, m.id), eq(shippingMethods.zoneId, zoneId)))
          .returning({ id: shippingMethods.id });
        // An id from elsewhere (another zone, a removed method) is a new method.
        if (updated.length === 0) await tx.insert(shippingMethods).values(values);
      } else {
        await tx.insert(shippingMethods).values(values);
      }
    }
  }

  return {
    /** An order's promised delivery window as its page shows it (its owner or an admin). */
    deliveryPromise: (orderId: string, viewer: { id: string; role: string }) =>
      orderDeliveryPromise(db, orderId, viewer),
    list: () => load(db),

    async create(input: ShippingZoneInput, actor: AuditActor): Promise<ShippingZone> {
      return db.transaction(async (tx) => {
        const [zone] = await tx
          .insert(shippingZones)
          .values({ name: input.name, countries: input.countries, regions: input.regions })
          .returning();
        await writeMethods(tx, zone!.id, input.methods);
        await recordAdminAction(tx, {
          actor,
          action: "shipping-zone.create",
          target: { type: "shipping-zone", id: zone!.id },
          summary: `Added the shipping zone ${input.name} (${input.countries.join(", ")})`,
        });
        return (await load(tx, [zone!.id]))[0]!;
      });
    },

    async replace(id: string, input: ShippingZoneInput, actor: AuditActor): Promise<ShippingZone> {
      return db.transaction(async (tx) => {
        const [zone] = await tx
          .update(shippingZones)
          .set({ name: input.name, countries: input.countries, regions: input.regions })
          .where(eq(shippingZones.id, id))
          .returning();
        if (!zone) throw notFound(shippingMessages.zoneNotFound);
        await writeMethods(tx, id, input.methods);
        await recordAdminAction(tx, {
          actor,
          action: "shipping-zone.update",
          target: { type: "shipping-zone", id },
          summary: `Changed the shipping zone ${input.name}`,
        });
        return (await load(tx, [id]))[0]!;
      });
    },

    async remove(id: string, actor: AuditActor): Promise<void> {
      await db.transaction(async (tx) => {
        const [zone] = await tx.delete(shippingZones).where(eq(shippingZones.id, id)).returning();
        if (!zone) throw notFound(shippingMessages.zoneNotFound);
        await recordAdminAction(tx, {
          actor,
          action: "shipping-zone.delete",
          target: { type: "shipping-zone", id },
          summary: `Removed the shipping zone ${zone.name}`,
        });
      });
    },
  };
}

export type ShippingService = ReturnType<typeof createShippingService>;
