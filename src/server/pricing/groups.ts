import { dayWords } from "../../contract/calendar";
import { and, asc, eq } from "drizzle-orm";
import { sql } from "../db/sql";
import { normalizePartNumber } from "../../contract/constants";
import {
  customerGroupMessages as msg,
  priceRuleInputSchema,
  priceRuleWords,
  type CustomerGroup,
  type CustomerGroupCreate,
  type CustomerGroupUpdate,
  type PriceRule,
  type PriceRuleInput,
} from "../../contract/customer-groups";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { isStillReferred, isUniqueViolation, transactionAnswering } from "../db/postgres-errors";
import { conflict, fieldError, notFound } from "../errors";
import { products } from "../catalog/tables";
import { customerGroups, priceRules, RETAIL_GROUP_ID } from "./tables";

/** A company's group as given (absent: unchanged or the default); 400 when there is no such group. */
export async function requireCustomerGroup(tx: DbOrTx, groupId: string | undefined) {
  if (!groupId) return;
  const [row] = await tx
    .select({ id: customerGroups.id })
    .from(customerGroups)
    .where(eq(customerGroups.id, groupId));
  if (!row) throw fieldError("customerGroupId", msg.notFound);
}

/**
 * The product of a part number, for a price rule or a discount code of one part; 400 on
 * `partNumber` (`message`) when no part has it.
 */
export async function partIdOf(tx: DbOrTx, partNumber: string, message: string): Promise<string> {
  const [product] = await tx
    .select({ id: products.id })
    .from(products)
    .where(eq(products.partNumberNormalized, normalizePartNumber(partNumber)));
  if (!product) throw fieldError("partNumber", message);
  return product.id;
}

/**
 * Customer groups and their price rules (admin; docs/pricing.md "Customer groups and price
 * rules"). The rules are applied by the pricing module alone (`pricingJson` reads those in force,
 * `unitPriceWithNote` applies them); this service only keeps them. Every change is in the audit
 * log, in its own transaction.
 */
export function createCustomerGroupService(db: Db) {
  async function groups(tx: DbOrTx, id?: string): Promise<CustomerGroup[]> {
    const rows = await tx
      .select({
        id: customerGroups.id,
        name: customerGroups.name,
        tradeMinimums: customerGroups.tradeMinimums,
        // Qualified by hand: drizzle writes a bare "id", which the subquery's own table would take.
        companyCount: sql<number>`(select count(*)::int from companies c where c.customer_group_id = customer_groups.id)`,
        customerCount: sql<number>`(select count(*)::int from "user" u where u.customer_group_id = customer_groups.id and u.role <> 'admin')`,
        ruleCount: sql<number>`(select count(*)::int from price_rules r where r.group_id = customer_groups.id)`,
      })
      .from(customerGroups)
      .where(id ? eq(customerGroups.id, id) : undefined)
      // The seeded groups (one instant, fixed ids in their order) first, then the newer ones.
      .orderBy(asc(customerGroups.createdAt), asc(customerGroups.id));
    return rows.map((r) => ({ ...r, retail: r.id === RETAIL_GROUP_ID }));
  }

  async function groupOrThrow(tx: DbOrTx, id: string): Promise<CustomerGroup> {
    const [group] = await groups(tx, id);
    if (!group) throw notFound(msg.notFound);
    return group;
  }

  const nameTaken = (err: unknown) =>
    isUniqueViolation(err, "customer_groups_name_unique") ? conflict(msg.nameTaken) : undefined;

  async function rules(tx: DbOrTx, groupId: string, ruleId?: string): Promise<PriceRule[]> {
    const rows = await tx
      .select({
        id: priceRules.id,
        groupId: priceRules.groupId,
        percent: priceRules.percent,
        scope: priceRules.scope,
        category: priceRules.category,
        brand: priceRules.brand,
        productId: priceRules.productId,
        partNumber: products.partNumber,
        startsOn: priceRules.startsOn,
        endsOn: priceRules.endsOn,
      })
      .from(priceRules)
      .leftJoin(products, eq(products.id, priceRules.productId))
      .where(and(eq(priceRules.groupId, groupId), ruleId ? eq(priceRules.id, ruleId) : undefined))
      .orderBy(asc(priceRules.createdAt), asc(priceRules.id));
    return rows.map((r) => ({
      ...r,
      words:
        r.scope === "part"
          ? `${r.percent} % off ${r.partNumber ?? "a removed part"}`
          : priceRuleWords(r),
    }));
  }

  /** A rule's columns from the form: its target (a part by its part number: 400 if none) and dates. */
  async function ruleColumns(tx: DbOrTx, rule: ReturnType<typeof priceRuleInputSchema.parse>) {
    const productId =
      rule.scope === "part" ? await partIdOf(tx, rule.partNumber!, msg.unknownPart) : null;
    return {
      percent: rule.percent,
      scope: rule.scope,
      category: rule.scope === "category" ? rule.category! : null,
      brand: rule.scope === "brand" ? rule.brand! : null,
      productId,
      startsOn: rule.startsOn ?? null,
      endsOn: rule.endsOn ?? null,
    };
  }

  /** A rule as the audit log names it: its words and dates. */
  const ruleSummary = (r: PriceRule) =>
    `${r.words}${r.startsOn ? ` from ${dayWords(r.startsOn)}` : ""}${r.endsOn ? ` to ${dayWords(r.endsOn)}` : ""}`;

  return {
    list: () => groups(db),

    async create(actor: AuditActor, input: CustomerGroupCreate): Promise<CustomerGroup> {
      return transactionAnswering(db, nameTaken, async (tx) => {
        const [row] = await tx
          .insert(customerGroups)
          .values({ name: input.name, tradeMinimums: input.tradeMinimums ?? true })
          .returning({ id: customerGroups.id });
        await recordAdminAction(tx, {
          actor,
          action: "customer-group.create",
          target: { type: "customer-group", id: row!.id },
          summary: `Created customer group ${input.name}`,
        });
        return groupOrThrow(tx, row!.id);
      });
    },

    async update(
      actor: AuditActor,
      id: string,
      input: CustomerGroupUpdate,
    ): Promise<CustomerGroup> {
      return transactionAnswering(db, nameTaken, async (tx) => {
        const before = await groupOrThrow(tx, id);
        await tx
          .update(customerGroups)
          .set({ name: input.name, tradeMinimums: input.tradeMinimums })
          .where(eq(customerGroups.id, id));
        const after = await groupOrThrow(tx, id);
        await recordAdminAction(tx, {
          actor,
          action: "customer-group.update",
          target: { type: "customer-group", id },
          summary: `Changed customer group ${before.name}: name ${before.name} → ${after.name}, trade minimums ${before.tradeMinimums ? "yes" : "no"} → ${after.tradeMinimums ? "yes" : "no"}`,
        });
        return after;
      });
    },

    async remove(actor: AuditActor, id: string): Promise<void> {
      if (id === RETAIL_GROUP_ID) throw conflict(msg.retailKept);
      // A company or a customer moved into it meanwhile: the foreign key refuses.
      const stillUsed = (err: unknown) => {
        if (isStillReferred(err, "companies_customer_group_id_fkey")) return conflict(msg.inUse);
        if (isStillReferred(err, "user_customer_group_id_fkey")) {
          return conflict(msg.customersInUse);
        }
        return undefined;
      };
      await transactionAnswering(db, stillUsed, async (tx) => {
        const group = await groupOrThrow(tx, id);
        if (group.companyCount > 0) throw conflict(msg.inUse);
        if (group.customerCount > 0) throw conflict(msg.customersInUse);
        await tx.delete(customerGroups).where(eq(customerGroups.id, id));
        await recordAdminAction(tx, {
          actor,
          action: "customer-group.delete",
          target: { type: "customer-group", id },
          summary: `Removed customer group ${group.name}`,
        });
      });
    },

    async rules(groupId: string): Promise<PriceRule[]> {
      await groupOrThrow(db, groupId);
      return rules(db, groupId);
    },

    async addRule(actor: AuditActor, groupId: string, input: PriceRuleInput): Promise<PriceRule> {
      const rule = priceRuleInputSchema.parse(input);
      if (groupId === RETAIL_GROUP_ID) throw fieldError("scope", msg.retailNoRules);
      return db.transaction(async (tx) => {
        const group = await groupOrThrow(tx, groupId);
        const [row] = await tx
          .insert(priceRules)
          .values({ groupId, ...(await ruleColumns(tx, rule)) })
          .returning({ id: priceRules.id });
        const [saved] = await rules(tx, groupId, row!.id);
        await recordAdminAction(tx, {
          actor,
          action: "price-rule.create",
          target: { type: "customer-group", id: groupId },
          summary: `Added a price rule to ${group.name}: ${ruleSummary(saved!)}`,
        });
        return saved!;
      });
    },

    /** A rule replaced by what the same form gives (its group stays). */
    async updateRule(
      actor: AuditActor,
      groupId: string,
      ruleId: string,
      input: PriceRuleInput,
    ): Promise<PriceRule> {
      const rule = priceRuleInputSchema.parse(input);
      return db.transaction(async (tx) => {
        const group = await groupOrThrow(tx, groupId);
        const [before] = await rules(tx, groupId, ruleId);
        if (!before) throw notFound(msg.ruleNotFound);
        await tx
          .update(priceRules)
          .set(await ruleColumns(tx, rule))
          .where(eq(priceRules.id, ruleId));
        const [after] = await rules(tx, groupId, ruleId);
        await recordAdminAction(tx, {
          actor,
          action: "price-rule.update",
          target: { type: "customer-group", id: groupId },
          summary: `Changed a price rule of ${group.name}: ${ruleSummary(before)} → ${ruleSummary(after!)}`,
        });
        return after!;
      });
    },

    async removeRule(actor: AuditActor, groupId: string, ruleId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const group = await groupOrThrow(tx, groupId);
        const [rule] = await rules(tx, groupId, ruleId);
        if (!rule) throw notFound(msg.ruleNotFound);
        await tx.delete(priceRules).where(eq(priceRules.id, ruleId));
        await recordAdminAction(tx, {
          actor,
          action: "price-rule.delete",
          target: { type: "customer-group", id: groupId },
          summary: `Removed a price rule of ${group.name}: ${rule.words}`,
        });
      });
    },
  };
}

export type CustomerGroupService = ReturnType<typeof createCustomerGroupService>;
