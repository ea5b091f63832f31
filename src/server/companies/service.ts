import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, ilike, isNull, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  companyMessages,
  INVITATION_DAYS,
  type Company,
  type CompanyCreate,
  type CompanyInvitation,
  type CompanyInvitationCreate,
  type CompanyMember,
  type CompanyMemberUpdate,
  type CompanyRole,
  type CompanyUpdate,
  type MyCompany,
  seesCompanyInvoices,
} from "../../contract/companies";
import { paths } from "../../contract/paths";
import type { PaymentTerms } from "../../contract/terms";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { containsPattern } from "../db/like";
import { companies, companyInvitations, companyMembers } from "./tables";
import { priceLists } from "../pricing/tables";
import { requireCustomerGroup } from "../pricing/groups";
import { user } from "../users/tables";
import { conflict, fieldError, forbidden, HttpError, notFound, unprocessable } from "../errors";
import type { Mailer } from "../mail/mailer";
import { companyInvitationMail } from "./mail";
import { centsToUnits, unitsToCents } from "../money";
import { isUniqueViolation, transactionAnswering } from "../db/postgres-errors";
import { membershipOf } from "./membership";
import { forgetVatCheck, vatCheckOf } from "./vat-checks";
import type { Membership } from "../http/request-context";
import { type Clock, systemClock } from "../clock";
import { recordWebhookEvent } from "../webhooks/outbox";
import { pageOf } from "../db/page";

/** Who is acting: an admin, or a signed-in customer (an owner managing their own company). */
export interface Caller {
  id: string;
  email: string;
  role: "admin" | "user";
}

/** A change to a company, in the audit log: one an owner made (not an admin) says so. */
export const auditCompany = (
  tx: DbOrTx,
  caller: Caller,
  action: string,
  companyId: string,
  summary: string,
) =>
  recordAdminAction(tx, {
    actor: { id: caller.id, email: caller.email },
    action,
    target: { type: "company", id: companyId },
    summary: caller.role === "admin" ? summary : `${summary} (as the company's owner)`,
  });

/** The company's invitations not yet accepted: of them, the one `which` names. */
const openInvitation = (companyId: string, which: SQL) =>
  and(eq(companyInvitations.companyId, companyId), which, isNull(companyInvitations.acceptedAt));

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const cents = (units: number | null | undefined) =>
  units === undefined ? undefined : units === null ? null : unitsToCents(units);
const units = (c: number | null) => (c === null ? null : centsToUnits(c));

/** A unique name taken, as the 409 people read. */
function nameTaken(err: unknown): HttpError | undefined {
  if (isUniqueViolation(err, "companies_name_unique")) {
    return conflict(companyMessages.nameTaken, "name");
  }
  if (isUniqueViolation(err, "company_members_user_unique")) {
    return conflict(companyMessages.alreadyMember);
  }
  return undefined;
}

/**
 * Companies (trade accounts): admins create and edit them; members join by an emailed
 * invitation; owners manage their own company's members. Every change is written to the audit
 * log in its own transaction. Membership is read from the database on every request, so a
 * removed member loses the company's prices and pages at once (their account stays). Who may
 * manage a company's members and invitations (an admin, or an owner of that company) is the
 * route's company hook's to say (`companyOwner`); the calls here trust it.
 */
export function createCompanyService(
  db: Db,
  opts: {
    mailer: Pick<Mailer, "sendIn">;
    publicUrl: string;
    /** What the company owes on its invoices on account (net terms' reader, `terms/account.ts`). */
    openInvoicesCents: (db: Db, companyId: string) => Promise<number>;
    /** Whether EU VAT numbers are checked against VIES (owners see the answer on My company). */
    viesChecks?: boolean;
    now?: Clock;
  },
) {
  const now = opts.now ?? systemClock;

  /** A company's own columns (what `mine` reads); the lists add its price list's name and more. */
  const ownColumns = {
    id: companies.id,
    name: companies.name,
    taxId: companies.taxId,
    paymentTerms: companies.paymentTerms,
    creditLimitCents: companies.creditLimitCents,
    priceListId: companies.priceListId,
  };
  const companyColumns = {
    ...ownColumns,
    priceListName: priceLists.name,
    customerGroupId: companies.customerGroupId,
    customerGroupName: sql<string>`(select g.name from customer_groups g where g.id = ${companies.customerGroupId})`,
    createdAt: companies.createdAt,
    memberCount: sql<number>`(select count(*)::int from company_members m where m.company_id = ${companies.id})`,
  };
  type CompanyRow = {
    id: string;
    name: string;
    taxId: string | null;
    paymentTerms: PaymentTerms;
    creditLimitCents: number | null;
    priceListId: string | null;
    priceListName: string | null;
    customerGroupId: string;
    customerGroupName: string;
    createdAt: Date;
    memberCount: number;
  };
  const toCompany = (r: CompanyRow): Company => ({
    id: r.id,
    name: r.name,
    taxId: r.taxId,
    paymentTerms: r.paymentTerms,
    creditLimit: units(r.creditLimitCents),
    priceListId: r.priceListId,
    priceListName: r.priceListName,
    customerGroupId: r.customerGroupId,
    customerGroupName: r.customerGroupName,
    memberCount: r.memberCount,
    createdAt: r.createdAt.toISOString(),
  });

  async function getCompany(tx: DbOrTx, id: string): Promise<Company> {
    const [row] = await tx
      .select(companyColumns)
      .from(companies)
      .leftJoin(priceLists, eq(priceLists.id, companies.priceListId))
      .where(eq(companies.id, id));
    if (!row) throw notFound(companyMessages.notFound);
    return toCompany(row);
  }

  async function checkPriceList(tx: DbOrTx, priceListId: string | null | undefined) {
    if (!priceListId) return;
    const [row] = await tx
      .select({ id: priceLists.id })
      .from(priceLists)
      .where(eq(priceLists.id, priceListId));
    if (!row) throw fieldError("priceListId", companyMessages.priceListNotFound);
  }

  async function membersOf(tx: DbOrTx, companyId: string): Promise<CompanyMember[]> {
    const rows = await tx
      .select({
        userId: companyMembers.userId,
        name: user.name,
        email: user.email,
        role: companyMembers.role,
        orderLimitCents: companyMembers.orderLimitCents,
        monthlyLimitCents: companyMembers.monthlyLimitCents,
        joinedAt: companyMembers.joinedAt,
      })
      .from(companyMembers)
      .innerJoin(user, eq(user.id, companyMembers.userId))
      .where(eq(companyMembers.companyId, companyId))
      .orderBy(asc(companyMembers.joinedAt), asc(user.email));
    return rows.map((r) => ({
      userId: r.userId,
      name: r.name,
      email: r.email,
      role: r.role,
      orderLimit: units(r.orderLimitCents),
      monthlyLimit: units(r.monthlyLimitCents),
      joinedAt: r.joinedAt.toISOString(),
    }));
  }

  return {
    async list(q: {
      limit: number;
      offset: number;
      q?: string;
    }): Promise<{ items: Company[]; total: number }> {
      const where = q.q ? ilike(companies.name, containsPattern(q.q)) : undefined;
      const { rows, total } = await pageOf(
        db,
        db
          .select(companyColumns)
          .from(companies)
          .leftJoin(priceLists, eq(priceLists.id, companies.priceListId))
          .where(where)
          .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id)),
        companies,
        where,
        q,
      );
      return { items: rows.map(toCompany), total };
    },

    get: (id: string) => getCompany(db, id),

    async create(actor: AuditActor, input: CompanyCreate): Promise<Company> {
      return transactionAnswering(db, nameTaken, async (tx) => {
        await checkPriceList(tx, input.priceListId);
        await requireCustomerGroup(tx, input.customerGroupId);
        const [row] = await tx
          .insert(companies)
          .values({
            name: input.name,
            taxId: input.taxId ?? null,
            paymentTerms: input.paymentTerms ?? "card",
            creditLimitCents: cents(input.creditLimit) ?? null,
            priceListId: input.priceListId ?? null,
            customerGroupId: input.customerGroupId,
          })
          .returning({ id: companies.id });
        const company = await getCompany(tx, row!.id);
        await recordWebhookEvent(tx, {
          type: "company.created",
          data: {
            companyId: company.id,
            name: company.name,
            taxId: company.taxId,
            paymentTerms: company.paymentTerms,
          },
        });
        await auditCompany(
          tx,
          { ...actor, role: "admin" },
          "company.create",
          company.id,
          `Created company ${company.name}${company.priceListName ? ` on price list ${company.priceListName}` : ""}`,
        );
        return company;
      });
    },

    async update(actor: AuditActor, id: string, input: CompanyUpdate): Promise<Company> {
      return transactionAnswering(db, nameTaken, async (tx) => {
        const before = await getCompany(tx, id);
        await checkPriceList(tx, input.priceListId);
        await requireCustomerGroup(tx, input.customerGroupId);
        await tx
          .update(companies)
          .set({
            name: input.name,
            taxId: input.taxId,
            // A tax id changed here is no longer the one whose EU VAT form was checked: it
            // stops reverse-charging until recorded again (docs/tax.md).
            ...(input.taxId !== undefined &&
              (input.taxId ?? null) !== before.taxId && {
                taxIdCountry: null,
                taxIdValidatedAt: null,
              }),
            paymentTerms: input.paymentTerms,
            creditLimitCents: cents(input.creditLimit),
            priceListId: input.priceListId,
            customerGroupId: input.customerGroupId,
          })
          .where(eq(companies.id, id));
        // Its VIES check was of the number before (docs/tax.md "VIES").
        if (input.taxId !== undefined && (input.taxId ?? null) !== before.taxId) {
          await forgetVatCheck(tx, id);
        }
        const after = await getCompany(tx, id);
        const changed = (Object.keys(input) as (keyof CompanyUpdate)[])
          .map((k) =>
            k === "priceListId"
              ? `price list ${before.priceListName ?? "none"} → ${after.priceListName ?? "none"}`
              : k === "customerGroupId"
                ? `group ${before.customerGroupName} → ${after.customerGroupName}`
                : `${k} ${JSON.stringify(before[k])} → ${JSON.stringify(after[k])}`,
          )
          .join(", ");
        await auditCompany(
          tx,
          { ...actor, role: "admin" },
          "company.update",
          id,
          `Changed company ${after.name}: ${changed}`,
        );
        return after;
      });
    },

    async members(companyId: string): Promise<CompanyMember[]> {
      await getCompany(db, companyId);
      return membersOf(db, companyId);
    },

    async invitations(companyId: string): Promise<CompanyInvitation[]> {
      await getCompany(db, companyId);
      const rows = await db
        .select()
        .from(companyInvitations)
        .where(eq(companyInvitations.companyId, companyId))
        .orderBy(desc(companyInvitations.createdAt));
      return rows.map((r) => ({
        id: r.id,
        email: r.email,
        role: r.role,
        createdAt: r.createdAt.toISOString(),
        expiresAt: r.expiresAt.toISOString(),
        acceptedAt: r.acceptedAt?.toISOString() ?? null,
      }));
    },

    /**
     * Invites an address: a new single-use token (its hash stored), emailed in the same
     * transaction (the outbox). A pending invitation to the same address is replaced. An owner
     * is told of a member of their own company (they see their members anyway), never of
     * another company's: that invitation is made and mailed as any other (its acceptance is
     * refused while the account belongs elsewhere), so the answer does not say whether an
     * address belongs to a company (issue 49, finding 4). Admins see every company: told.
     */
    async invite(
      caller: Caller,
      companyId: string,
      input: CompanyInvitationCreate,
    ): Promise<CompanyInvitation> {
      const email = input.email.toLowerCase();
      return db.transaction(async (tx) => {
        const company = await getCompany(tx, companyId);
        const [existing] = await tx
          .select({ companyId: companyMembers.companyId })
          .from(companyMembers)
          .innerJoin(user, eq(user.id, companyMembers.userId))
          .where(eq(user.email, email));
        if (existing && (caller.role === "admin" || existing.companyId === companyId)) {
          throw conflict(companyMessages.alreadyMember);
        }
        await tx
          .delete(companyInvitations)
          .where(openInvitation(companyId, eq(companyInvitations.email, email)));
        const token = randomBytes(32).toString("base64url");
        const expiresAt = new Date(now().getTime() + INVITATION_DAYS * 24 * 3600 * 1000);
        const [row] = await tx
          .insert(companyInvitations)
          .values({
            companyId,
            email,
            role: input.role,
            tokenHash: hashToken(token),
            invitedBy: caller.id,
            expiresAt,
          })
          .returning();
        await opts.mailer.sendIn(
          tx,
          {
            to: email,
            ...companyInvitationMail({
              companyName: company.name,
              role: input.role,
              url: `${opts.publicUrl}${paths.companyInvitation}?token=${encodeURIComponent(token)}`,
              expiresInDays: INVITATION_DAYS,
              publicUrl: opts.publicUrl,
            }),
          },
          `company-invitation:${row!.id}`,
        );
        await auditCompany(
          tx,
          caller,
          "company.invite",
          companyId,
          `Invited ${email} to ${company.name} as ${input.role}`,
        );
        return {
          id: row!.id,
          email,
          role: row!.role,
          createdAt: row!.createdAt.toISOString(),
          expiresAt: row!.expiresAt.toISOString(),
          acceptedAt: null,
        };
      });
    },

    async revokeInvitation(caller: Caller, companyId: string, invitationId: string) {
      await db.transaction(async (tx) => {
        const gone = await tx
          .delete(companyInvitations)
          .where(openInvitation(companyId, eq(companyInvitations.id, invitationId)))
          .returning({ email: companyInvitations.email });
        if (gone.length === 0) throw notFound(companyMessages.invitationNotFound);
        await auditCompany(
          tx,
          caller,
          "company.invitation.revoke",
          companyId,
          `Withdrew the invitation of ${gone[0]!.email}`,
        );
      });
    },

    /** The signed-in account joins the company of the invitation (its address must match). */
    async accept(
      caller: Caller,
      token: string,
    ): Promise<{ companyId: string; companyName: string; role: CompanyRole }> {
      if (caller.role === "admin") throw forbidden(companyMessages.adminsCannotJoin);
      return transactionAnswering(db, nameTaken, async (tx) => {
        const [inv] = await tx
          .select()
          .from(companyInvitations)
          .where(eq(companyInvitations.tokenHash, hashToken(token)))
          .for("update");
        if (!inv) throw notFound(companyMessages.invitationInvalid);
        if (inv.acceptedAt) throw new HttpError(410, "gone", companyMessages.invitationUsed);
        if (inv.expiresAt.getTime() <= now().getTime()) {
          throw new HttpError(410, "gone", companyMessages.invitationExpired);
        }
        if (inv.email !== caller.email.toLowerCase()) {
          throw forbidden(companyMessages.wrongEmail(inv.email));
        }
        if (await membershipOf(tx, caller.id)) throw conflict(companyMessages.alreadyMember);
        await tx.insert(companyMembers).values({
          companyId: inv.companyId,
          userId: caller.id,
          role: inv.role,
        });
        await tx
          .update(companyInvitations)
          .set({ acceptedAt: sql`now()` })
          .where(eq(companyInvitations.id, inv.id));
        const company = await getCompany(tx, inv.companyId);
        await auditCompany(
          tx,
          { ...caller, role: "admin" },
          "company.join",
          inv.companyId,
          `${caller.email} accepted the invitation to ${company.name} as ${inv.role}`,
        );
        return { companyId: company.id, companyName: company.name, role: inv.role };
      });
    },

    async updateMember(
      caller: Caller,
      companyId: string,
      userId: string,
      input: CompanyMemberUpdate,
    ): Promise<CompanyMember> {
      return db.transaction(async (tx) => {
        await lockMembers(tx, companyId);
        const before = (await membersOf(tx, companyId)).find((m) => m.userId === userId);
        if (!before) throw notFound(companyMessages.memberNotFound);
        if (caller.role !== "admin" && input.role && input.role !== "owner") {
          await keepAnOwner(tx, companyId, userId, before.role);
        }
        await tx
          .update(companyMembers)
          .set({
            role: input.role,
            orderLimitCents: cents(input.orderLimit),
            monthlyLimitCents: cents(input.monthlyLimit),
          })
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
        const after = (await membersOf(tx, companyId)).find((m) => m.userId === userId)!;
        await auditCompany(
          tx,
          caller,
          "company.member.update",
          companyId,
          `Changed member ${after.email}: role ${before.role} → ${after.role}, per-order limit ${before.orderLimit ?? "none"} → ${after.orderLimit ?? "none"}, monthly limit ${before.monthlyLimit ?? "none"} → ${after.monthlyLimit ?? "none"}`,
        );
        return after;
      });
    },

    /** Ends a member's access to the company at once (their account stays). */
    async removeMember(caller: Caller, companyId: string, userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await lockMembers(tx, companyId);
        const member = (await membersOf(tx, companyId)).find((m) => m.userId === userId);
        if (!member) throw notFound(companyMessages.memberNotFound);
        if (caller.role !== "admin") await keepAnOwner(tx, companyId, userId, member.role);
        await tx
          .delete(companyMembers)
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
        await auditCompany(
          tx,
          caller,
          "company.member.remove",
          companyId,
          `Removed ${member.email} (${member.role}) from the company`,
        );
      });
    },

    /** The caller's company (their membership, or none); its members are listed to its owners only. */
    async mine(m: Membership | null): Promise<MyCompany> {
      if (!m) return { company: null };
      const [row] = await db
        .select(ownColumns)
        .from(companies)
        .where(eq(companies.id, m.companyId));
      // Never so (a company is not deleted), but the read may find no row.
      if (!row) return { company: null };
      const openCents = seesCompanyInvoices(m.role)
        ? await opts.openInvoicesCents(db, row.id)
        : null;
      return {
        company: {
          id: row.id,
          name: row.name,
          taxId: row.taxId,
          paymentTerms: row.paymentTerms,
          creditLimit: units(row.creditLimitCents),
          role: m.role,
          orderLimit: units(m.orderLimitCents),
          monthlyLimit: units(m.monthlyLimitCents),
          hasPriceList: row.priceListId !== null,
          openInvoices: units(openCents),
          creditLeft:
            openCents === null || row.creditLimitCents === null
              ? null
              : units(Math.max(row.creditLimitCents - openCents, 0)),
          members: m.role === "owner" ? await membersOf(db, row.id) : null,
          vatCheck: m.role === "owner" && opts.viesChecks ? await vatCheckOf(db, row.id) : null,
        },
      };
    },
  };
}

/**
 * Member changes of one company one at a time: the company's row is locked (no key update, so
 * invitations may still be accepted and buyers still check its credit) before its members are
 * read, so two owners demoting or removing each other at once cannot both count the other as the
 * owner left (`keepAnOwner`); the second reads the first's change once it commits.
 */
async function lockMembers(tx: DbOrTx, companyId: string) {
  await tx
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, companyId))
    .for("no key update");
}

/** An owner may not leave their company without an owner (an admin may). */
async function keepAnOwner(tx: DbOrTx, companyId: string, userId: string, role: CompanyRole) {
  if (role !== "owner") return;
  const [other] = await tx
    .select({ n: count() })
    .from(companyMembers)
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.role, "owner"),
        sql`${companyMembers.userId} <> ${userId}`,
      ),
    );
  if ((other?.n ?? 0) === 0) throw unprocessable(companyMessages.lastOwner);
}

export type CompanyService = ReturnType<typeof createCompanyService>;
