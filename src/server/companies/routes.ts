import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
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

  app.get(
    "/companies/:id/members",
    {
      schema: {
        tags: ["companies"],
        summary:
          "A company's members with their roles and limits (admins, and the company's owners)",
        params: idParamsSchema,
        response: { 200: z.array(companyMemberSchema), ...errors },
      },
      ...ownerOfPath,
    },
    async (req) => companies.members(req.params.id),
  );

  app.patch(
    "/companies/:id/members/:userId",
    {
      schema: {
        tags: ["companies"],
        summary:
          "Change a member's role or spending limits (admins, and the company's owners); an order over a limit waits for an owner's approval",
        params: companyMemberParamsSchema,
        body: companyMemberUpdateSchema,
        response: { 200: companyMemberSchema, ...errors },
      },
      ...ownerOfPath,
    },
    async (req) => companies.updateMember(caller(req), req.params.id, req.params.userId, req.body),
  );

  app.delete(
    "/companies/:id/members/:userId",
    {
      schema: {
        tags: ["companies"],
        summary:
          "Remove a member: their access to the company ends at once, their account stays (admins, and the company's owners)",
        params: companyMemberParamsSchema,
        response: { 204: z.null(), ...errors },
      },
      ...ownerOfPath,
    },
    async (req, reply) => {
      await companies.removeMember(caller(req), req.params.id, req.params.userId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/companies/:id/invitations",
    {
      schema: {
        tags: ["companies"],
        summary: "A company's invitations, newest first (admins, and the company's owners)",
        params: idParamsSchema,
        response: { 200: z.array(companyInvitationSchema), ...errors },
      },
      ...ownerOfPath,
    },
    async (req) => companies.invitations(req.params.id),
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

  app.delete(
    "/companies/:id/invitations/:invitationId",
    {
      schema: {
        tags: ["companies"],
        summary: "Withdraw an invitation not yet accepted (admins, and the company's owners)",
        params: companyInvitationParamsSchema,
        response: { 204: z.null(), ...errors },
      },
      ...ownerOfPath,
    },
    async (req, reply) => {
      await companies.revokeInvitation(caller(req), req.params.id, req.params.invitationId);
      return reply.code(204).send(null);
    },
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
