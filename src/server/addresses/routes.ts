import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  addressBookSchema,
  addressInputSchema,
  addressPatchSchema,
  addressSchema,
} from "../../contract/addresses";
import { idParamsSchema } from "../../contract/common";
import { errorAnswers } from "../api-errors";
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

  app.post(
    "/user/addresses",
    {
      schema: {
        tags: ["addresses"],
        summary:
          "Add a delivery address (checked per country: postal code format, US state / Canadian province); the first one is the default",
        body: addressInputSchema,
        response: { 201: addressSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req, reply) => {
      const me = caller(req);
      return reply.code(201).send(await addresses.create(me.id, req.body));
    },
  );

  app.patch(
    "/user/addresses/:id",
    {
      schema: {
        tags: ["addresses"],
        summary:
          "Change a delivery address (the result is checked whole), or make it the default with { isDefault: true }",
        params: idParamsSchema,
        body: addressPatchSchema,
        response: { 200: addressSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => {
      const me = caller(req);
      return addresses.update(me.id, req.params.id, req.body);
    },
  );

  app.delete(
    "/user/addresses/:id",
    {
      schema: {
        tags: ["addresses"],
        summary:
          "Remove a delivery address (orders keep their copy); removing the default makes the oldest left the default",
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req, reply) => {
      const me = caller(req);
      await addresses.remove(me.id, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
