import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  acceptedInvitationSchema,
  companyMessages,
  companyCreateSchema,
  companyInvitationAcceptSchema,
  companyInvitationCreateSchema,
  companyInvitationParamsSchema,
  companyInvitationSchema,
  companyMemberParamsSchema,
  companyMemberSchema,
  companyMemberUpdateSchema,
  companySchema,
  companyUpdateSchema,
  myCompanySchema,
} from "../../contract/companies";
import { idParamsSchema } from "../../contract/common";
import { searchPagingQuerySchema } from "../../contract/pricing";
import { errorAnswers } from "../api-errors";
import { onEachWrite } from "../http/each-write";
import { pagedListRoute } from "../http/page";
import { recordRoutes } from "../http/record-routes";
import { companyRecordRoutes } from "./record-routes";
import type { RateLimiter } from "../auth/rate-limit";
import { enforceLimits } from "../auth/request-limit";
import { adminRoute, caller, companyOf, type Guards } from "../http/request-context";
import { notFound } from "../errors";
import type { CompanyService } from "./service";

const errors = errorAnswers(400, 401, 403, 404, 409, 410, 422);

/**
 * Invitation mail (issue 49, finding 4: one owner sent an inbox 15 in 1.8 s): per company, room
 * for a team set up in one sitting; per invited address, a first mail and two resends an hour,
 * whichever company sends them.
 */
export const INVITATION_LIMITS = {
  perCompany: { max: 30, windowSeconds: 60 * 60 },
  perAddress: { max: 3, windowSeconds: 60 * 60 },
};

/**
 * Companies (DESIGN.md section 7): `/companies…` for admins, and for a company's owners on
 * their own company's members and invitations (anyone else: 404); `/company` is the caller's.
 */
export const companyRoutes: FastifyPluginAsyncZod<{
  companies: CompanyService;
  guards: Guards;
  /** Told of every successful write (the company price cache is cleared). */
  pricesChanged?: () => void;
  rateLimiter: RateLimiter;
}> = async (app, { companies, guards, pricesChanged, rateLimiter }) => {
  // A change to a company's list or members, or to a price list, clears this process's company
  // prices as its answer leaves, so the writer's next read never waits for the NOTIFY (which the
  // other processes hear: migration 0034). Any successful write here counts.
  onEachWrite(app, () => pricesChanged?.());

  /** An admin, or an owner of the path's company; anyone else is told it does not exist. */
  const ownerOfPath = {
    onRequest: guards.customerOrAdmin,
    preHandler: guards.companyOwner({
      ofPath: true,
      outsider: () => notFound(companyMessages.notFound),
    }),
  };

  pagedListRoute(
    app,
    "/companies",
    {
      tags: ["companies", "admin"],
      summary: "Admin: companies by name, paged (`q` searches names); total in X-Total-Count",
      querystring: searchPagingQuerySchema,
      item: companySchema,
      errors,
      ...adminRoute(guards, "customers:read"),
    },
    (query) => companies.list(query),
  );

  // Read by admins and API keys with `customers:read`; changed by admins only.
  const company = { tags: ["companies", "admin"], record: companySchema, errors };
  const read = recordRoutes(app, "/companies", {
    ...company,
    ...adminRoute(guards, "customers:read"),
  });
  const change = recordRoutes(app, "/companies", { ...company, onRequest: guards.adminOnly });
  change.create(
    "Admin: a new company (name, tax id, payment terms, credit limit, price list); members join by invitation",
    companyCreateSchema,
    (body, me) => companies.create(me, body),
  );
  read.get("Admin: one company", (id) => companies.get(id));
  change.update(
    "Admin: change a company (any of its fields; `priceListId: null` takes its list away)",
    companyUpdateSchema,
    (id, body, me) => companies.update(me, id, body),
  );

  const members = companyRecordRoutes(app, {
    kind: "members",
    key: "userId",
    params: companyMemberParamsSchema,
    record: companyMemberSchema,
    errors,
  });
  members.list(
    "A company's members with their roles and limits (admins, and the company's owners)",
    ownerOfPath,
    (companyId) => companies.members(companyId),
  );
  members.update(
    "Change a member's role or spending limits (admins, and the company's owners); an order over a limit waits for an owner's approval",
    companyMemberUpdateSchema,
    ownerOfPath,
    (me, companyId, userId, body) => companies.updateMember(me, companyId, userId, body),
  );
  members.remove(
    "Remove a member: their access to the company ends at once, their account stays (admins, and the company's owners)",
    ownerOfPath,
    (me, companyId, userId) => companies.removeMember(me, companyId, userId),
  );

  const invitations = companyRecordRoutes(app, {
    kind: "invitations",
    key: "invitationId",
    params: companyInvitationParamsSchema,
    record: companyInvitationSchema,
    errors,
  });
  invitations.list(
    "A company's invitations, newest first (admins, and the company's owners)",
    ownerOfPath,
    (companyId) => companies.invitations(companyId),
  );

  app.post(
    "/companies/:id/invitations",
    {
      schema: {
        tags: ["companies"],
        summary:
          "Invite an email address to the company with a role: it is emailed a link valid for 7 days (admins, and the company's owners)",
        params: idParamsSchema,
        body: companyInvitationCreateSchema,
        response: { 201: companyInvitationSchema, ...errors, ...errorAnswers(429) },
      },
      ...ownerOfPath,
    },
    async (req, reply) => {
      const { perCompany, perAddress } = INVITATION_LIMITS;
      await enforceLimits(rateLimiter, reply, [
        { key: `companies:invite:company:${req.params.id}`, ...perCompany },
        { key: `companies:invite:email:${req.body.email.toLowerCase()}`, ...perAddress },
      ]);
      return reply.code(201).send(await companies.invite(caller(req), req.params.id, req.body));
    },
  );

  invitations.remove(
    "Withdraw an invitation not yet accepted (admins, and the company's owners)",
    ownerOfPath,
    (me, companyId, invitationId) => companies.revokeInvitation(me, companyId, invitationId),
  );

  app.post(
    "/company-invitations/accept",
    {
      schema: {
        tags: ["companies"],
        summary:
          "Accept an emailed invitation (its token), signed in with the invited address: you join the company",
        body: companyInvitationAcceptSchema,
        response: { 200: acceptedInvitationSchema, ...errors },
      },
      onRequest: guards.customerOrAdmin,
    },
    async (req) => companies.accept(caller(req), req.body.token),
  );

  app.get(
    "/company",
    {
      schema: {
        tags: ["companies"],
        summary:
          "Your company and your role in it (`company: null` without one); owners also see its members",
        response: { 200: myCompanySchema, ...errors },
      },
      onRequest: guards.signedIn,
      preHandler: guards.companyIfAny,
    },
    async (req) => companies.mine(companyOf(req)),
  );
};
