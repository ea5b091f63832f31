import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import {
  claimPhotoParamsSchema,
  claimPhotoSchema,
  claimInspectionSchema,
  failureCodeInputSchema,
  failureCodeParamsSchema,
  failureCodeSchema,
  claimableSchema,
  claimApprovalSchema,
  claimInputSchema,
  claimPartRequestSchema,
  type Claim,
  type ClaimApproval,
  type ClaimPartRequest,
  claimMessageInputSchema,
  claimRejectionSchema,
  claimSchema,
  claimsQuerySchema,
  claimSummarySchema,
} from "../../contract/warranty";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";
import { caller, companyOf, type Guards } from "../http/request-context";
import { orderReadRoutes } from "../orders/read-routes";
import { privatePhotoRoutes } from "../photos/routes";
import { claimPhotoRule, type ClaimCaller, type WarrantyService } from "./service";

const errors = errorAnswers(400, 401, 403, 404, 409, 422, 429);

/** An admin acting, as the audit log names them (and the API key they act through, if any). */
const actor = (req: FastifyRequest) => ({ ...claimCaller(req), apiKey: caller(req).apiKey });

/** The caller as the warranty service asks: who, and their company (the route's company hook). */
const claimCaller = (req: FastifyRequest): ClaimCaller => {
  const u = caller(req);
  return { id: u.id, role: u.role, name: u.name, email: u.email, company: companyOf(req) };
};

/** Warranty claims (docs/warranty.md). */
/**
 * The decisions that reach other modules (the returns, the order path): workflows/
 * warranty-claims.ts makes them; this module only routes to them.
 */
export interface ClaimDecider {
  requestPart(id: string, input: ClaimPartRequest, actor: ClaimActor): Promise<Claim>;
  approve(id: string, input: ClaimApproval, actor: ClaimActor): Promise<Claim>;
}
type ClaimActor = ReturnType<typeof actor>;

export const warrantyRoutes: FastifyPluginAsyncZod<{
  warranty: WarrantyService;
  decisions: ClaimDecider;
  guards: Guards;
}> = async (app, { warranty, decisions, guards }) => {
  // Every route reads the caller's company, if any: a company's owners and buyers act for it.
  const who = { preHandler: guards.companyIfAny };

  const orderRead = orderReadRoutes(app, guards, ["warranty"], errors, {
    ...who,
    viewer: claimCaller,
  });
  orderRead(
    "/orders/:id/warranty",
    "What of each line of the order may still be claimed under warranty, and until when (its buyer, their company's owners and buyers, or an admin)",
    claimableSchema,
    (id, viewer) => warranty.claimable(id, viewer),
  );
  orderRead(
    "/orders/:id/warranty-claims",
    "The order's warranty claims, newest first, with their history",
    z.array(claimSchema),
    (id, viewer) => warranty.forOrder(id, viewer),
  );

  app.post(
    "/warranty-claims",
    {
      schema: {
        tags: ["warranty"],
        summary:
          "Claim units of a shipped order line that failed in use, within the part's warranty",
        body: claimInputSchema,
        response: { 201: claimSchema, ...errors },
      },
      onRequest: guards.customerOnly,
      ...who,
      config: { idempotent: true },
    },
    async (req, reply) => reply.status(201).send(await warranty.file(req.body, claimCaller(req))),
  );

  pagedListRoute(
    app,
    "/warranty-claims",
    {
      tags: ["warranty"],
      summary:
        "Warranty claims, newest first: every claim for admins, else the caller's and their company's (owners and buyers); the total in X-Total-Count",
      querystring: claimsQuerySchema,
      item: claimSummarySchema,
      errors,
      onRequest: guards.signedIn,
      ...who,
    },
    (query, req) => warranty.list(query, claimCaller(req)),
  );

  app.get(
    "/warranty-claims/:id",
    {
      schema: {
        tags: ["warranty"],
        summary: "One warranty claim with its history (its claimant's side or an admin)",
        params: idParamsSchema,
        response: { 200: claimSchema, ...errors },
      },
      onRequest: guards.signedIn,
      ...who,
    },
    async (req) => warranty.get(req.params.id, claimCaller(req)),
  );

  app.post(
    "/warranty-claims/:id/messages",
    {
      schema: {
        tags: ["warranty"],
        summary:
          "A message on an open claim's thread; the store may ask for information (the claim then waits for the claimant's answer)",
        params: idParamsSchema,
        body: claimMessageInputSchema,
        response: { 200: claimSchema, ...errors },
      },
      onRequest: guards.customerOrAdmin,
      ...who,
    },
    async (req) => warranty.message(req.params.id, claimCaller(req), req.body),
  );

  /** An admin's decision on an open claim: POST /warranty-claims/:id/{kind}, answered by the claim. */
  const decisionRoute = <Body extends z.ZodType>(
    kind: string,
    summary: string,
    body: Body,
    decide: (id: string, body: z.output<Body>, by: ReturnType<typeof actor>) => Promise<Claim>,
  ) =>
    app.post(
      `/warranty-claims/:id/${kind}`,
      {
        schema: {
          tags: ["warranty"],
          summary,
          params: idParamsSchema,
          body,
          response: { 200: claimSchema, ...errors },
        },
        onRequest: guards.adminOnly,
        ...who,
      },
      async (req) => decide(req.params.id, req.body as z.output<Body>, actor(req)),
    );

  decisionRoute(
    "reject",
    "Admin: reject an open claim with the reason (emailed to the claimant)",
    claimRejectionSchema,
    (id, body, by) => warranty.reject(id, body.reason, by),
  );
  decisionRoute(
    "request-part",
    "Admin: ask for an open claim's part back, as a return approved at once (its RMA and the returns address, emailed to the claimant)",
    claimPartRequestSchema,
    decisions.requestPart,
  );
  decisionRoute(
    "approve",
    "Admin: approve an open claim: a replacement on a $0 order, or the refund of its returned part (by the returns' rules); emailed to the claimant",
    claimApprovalSchema,
    decisions.approve,
  );
  decisionRoute(
    "inspect",
    "Admin: what the inspection of an open claim's part found: a failure code in use and the findings (emailed to the claimant)",
    claimInspectionSchema,
    warranty.inspect,
  );

  await privatePhotoRoutes(app, "/warranty-claims/:id/photos", {
    tags: ["warranty"],
    who: { onRequest: guards.signedIn, ...who },
    rule: claimPhotoRule,
    photo: claimPhotoSchema,
    photoParams: claimPhotoParamsSchema,
    errors,
    photoSummary: "A photo of a claim (those who see the claim), shown inline",
    read: (id, photoId, req) => warranty.photo(id, photoId, claimCaller(req)),
    addSummary:
      "Add photos of the failed part to an open claim (its claimant's side): multipart field `photos`, JPEG/PNG/WebP up to 2 MiB each, 3 per claim",
    add: (id, uploads, req) => warranty.addPhotos(id, claimCaller(req), uploads),
  });

  app.get(
    "/warranty/failure-codes",
    {
      schema: {
        tags: ["warranty"],
        summary: "Admin: the failure codes an inspection chooses from, those in use first",
        response: { 200: z.array(failureCodeSchema), ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async () => warranty.failureCodes(),
  );

  app.put(
    "/warranty/failure-codes/:code",
    {
      schema: {
        tags: ["warranty"],
        summary: "Admin: add a failure code, or rename or retire one (a code is never removed)",
        params: failureCodeParamsSchema,
        body: failureCodeInputSchema,
        response: { 200: failureCodeSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => warranty.setFailureCode(req.params.code, req.body, caller(req)),
  );
};
