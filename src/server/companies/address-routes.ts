import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { companyAddressInputSchema } from "../../contract/addresses";
import {
  companyAddressMessages,
  companyAddressParamsSchema,
  companyAddressPatchSchema,
  companyAddressSchema,
  companyMessages,
} from "../../contract/companies";
import { errorAnswers } from "../api-errors";
import type { Guards } from "../http/request-context";
import { forbidden, notFound } from "../errors";
import type { CompanyAddressService } from "./addresses";
import { companyRecordRoutes } from "./record-routes";

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

  const addresses = companyRecordRoutes(app, {
    kind: "addresses",
    key: "addressId",
    params: companyAddressParamsSchema,
    record: companyAddressSchema,
    errors,
  });
  addresses.list(
    "A company's ship-to addresses, oldest first (admins, and the company's members); its members deliver to them at checkout by their id as `addressId`",
    memberOfPath,
    (companyId) => companyAddresses.list(companyId),
  );
  addresses.create(
    "Add a ship-to address (checked as the address book's: postal code format, US state / Canadian province); admins, and the company's owners",
    companyAddressInputSchema,
    ownerOfPath,
    (me, companyId, body) => companyAddresses.create(me, companyId, body),
  );
  addresses.update(
    "Change a ship-to address (the result is checked whole); admins, and the company's owners",
    companyAddressPatchSchema,
    ownerOfPath,
    (me, companyId, addressId, body) => companyAddresses.update(me, companyId, addressId, body),
  );
  addresses.remove(
    "Remove a ship-to address (orders sent there keep their copy); admins, and the company's owners",
    ownerOfPath,
    (me, companyId, addressId) => companyAddresses.remove(me, companyId, addressId),
  );
};
