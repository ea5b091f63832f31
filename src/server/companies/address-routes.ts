import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { companyAddressInputSchema } from "../../contract/addresses";
import {
  companyAddressMessages,
  companyAddressParamsSchema,
  companyAddressPatchSchema,
  companyAddressSchema,
  companyMessages,
} from "../../contract/companies";
import { idParamsSchema } from "../../contract/common";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../http/request-context";
import { forbidden, notFound } from "../errors";
import type { CompanyAddressService } from "./addresses";

const errors = errorAnswers(400, 401, 403, 404, 422);

/**
 * A company's ship-to addresses (docs/companies.md): admins and the company's owners
 * manage them, its buyers and viewers list them; anyone else gets 404.
 */
export const companyAddressRoutes: FastifyPluginAsyncZod<{
  companyAddresses: CompanyAddressService;
  guards: Guards;
}> = async (app, { companyAddresses, guards }) => {
  const outsider = () => notFound(companyMessages.notFound);
  /** An admin, or a member of the path's company. */
  const memberOfPath = {
    onRequest: guards.customerOrAdmin,
    preHandler: guards.companyMember({ ofPath: true, outsider }),
  };
  /** An admin, or an owner of the path's company (its buyers and viewers: 403). */
  const ownerOfPath = {
    onRequest: guards.customerOrAdmin,
    preHandler: guards.companyOwner({
      ofPath: true,
      outsider,
      wrongRole: () => forbidden(companyAddressMessages.ownersOnly),
    }),
  };

  app.get(
    "/companies/:id/addresses",
    {
      schema: {
        tags: ["companies"],
        summary:
          "A company's ship-to addresses, oldest first (admins, and the company's members); its members deliver to them at checkout by their id as `addressId`",
        params: idParamsSchema,
        response: { 200: z.array(companyAddressSchema), ...errors },
      },
      ...memberOfPath,
    },
    async (req) => companyAddresses.list(req.params.id),
  );

  app.post(
    "/companies/:id/addresses",
    {
      schema: {
        tags: ["companies"],
        summary:
          "Add a ship-to address (checked as the address book's: postal code format, US state / Canadian province); admins, and the company's owners",
        params: idParamsSchema,
        body: companyAddressInputSchema,
        response: { 201: companyAddressSchema, ...errors },
      },
      ...ownerOfPath,
    },
    async (req, reply) =>
      reply.code(201).send(await companyAddresses.create(caller(req), req.params.id, req.body)),
  );

  app.patch(
    "/companies/:id/addresses/:addressId",
    {
      schema: {
        tags: ["companies"],
        summary:
          "Change a ship-to address (the result is checked whole); admins, and the company's owners",
        params: companyAddressParamsSchema,
        body: companyAddressPatchSchema,
        response: { 200: companyAddressSchema, ...errors },
      },
      ...ownerOfPath,
    },
    async (req) =>
      companyAddresses.update(caller(req), req.params.id, req.params.addressId, req.body),
  );

  app.delete(
    "/companies/:id/addresses/:addressId",
    {
      schema: {
        tags: ["companies"],
        summary:
          "Remove a ship-to address (orders sent there keep their copy); admins, and the company's owners",
        params: companyAddressParamsSchema,
        response: { 204: z.null(), ...errors },
      },
      ...ownerOfPath,
    },
    async (req, reply) => {
      await companyAddresses.remove(caller(req), req.params.id, req.params.addressId);
      return reply.code(204).send(null);
    },
  );
};
