import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  addressBookSchema,
  addressInputSchema,
  addressPatchSchema,
  addressSchema,
} from "../../contract/addresses";
import { errorAnswers } from "../api-errors";
import { recordRoutes } from "../http/record-routes";
import { caller, type Guards } from "../http/request-context";
import type { AddressService } from "./service";

const errors = errorAnswers(400, 401, 403, 404, 409, 422);

/** My Info's address book (customers; admins do not order, so they have none: 403). */
export const addressRoutes: FastifyPluginAsyncZod<{
  addresses: AddressService;
  guards: Guards;
}> = async (app, { addresses, guards }) => {
  app.get(
    "/user/addresses",
    {
      schema: {
        tags: ["addresses"],
        summary: "Your delivery addresses, the default first",
        response: { 200: addressBookSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => addresses.list(caller(req).id),
  );

  const book = recordRoutes(app, "/user/addresses", {
    tags: ["addresses"],
    record: addressSchema,
    errors,
    onRequest: guards.customerOnly,
  });
  book.create(
    "Add a delivery address (checked per country: postal code format, US state / Canadian province); the first one is the default",
    addressInputSchema,
    (body, me) => addresses.create(me.id, body),
  );
  book.update(
    "Change a delivery address (the result is checked whole), or make it the default with { isDefault: true }",
    addressPatchSchema,
    (id, body, me) => addresses.update(me.id, id, body),
  );
  book.remove(
    "Remove a delivery address (orders keep their copy); removing the default makes the oldest left the default",
    (id, me) => addresses.remove(me.id, id),
  );
};
