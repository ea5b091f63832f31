import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { onEachWrite } from "../../http/each-write";
import { z } from "zod";
import {
  adminAttributeDefinitionSchema,
  attributeChangeSchema,
  attributeCreateSchema,
  attributeDefinitionSchema,
  attributeListQuerySchema,
  attributeParamsSchema,
  productAttributesAnswerSchema,
  productAttributeValuesSchema,
} from "../../../contract/attributes";
import { idParamsSchema } from "../../../contract/common";
import { errorAnswers } from "../../api-errors";
import type { CatalogReadCache } from "../read-cache";
import { caller, type Guards } from "../../http/request-context";
import type { AttributeService } from "./service";

export interface AttributeRoutesOptions {
  attributes: AttributeService;
  catalogCache: CatalogReadCache;
  guards: Guards;
}

const writeErrors = errorAnswers(400, 401, 403, 404, 409);

/**
 * Attribute definitions (docs/attributes.md): anyone reads a category's; admins add, change and
 * remove them and set a product's values.
 */
export const attributeRoutes: FastifyPluginAsyncZod<AttributeRoutesOptions> = async (
  app,
  { attributes, catalogCache, guards },
) => {
  // A change clears this process's catalog answers before the answer leaves (read your writes);
  // the tables' trigger tells every other process (migration 0057).
  onEachWrite(app, () => catalogCache.invalidate("catalog"));

  const tags = ["attributes"];
  const onRequest = guards.adminOnly;

  app.get(
    "/attributes",
    {
      schema: {
        tags,
        summary:
          "A category's attribute definitions in their order, or every category's without `category` (anyone)",
        querystring: attributeListQuerySchema,
        response: { 200: z.array(attributeDefinitionSchema), ...errorAnswers(400) },
      },
      config: { apiScope: "catalog:read" },
    },
    async (req) => attributes.list(req.query),
  );

  app.get(
    "/attributes/table",
    {
      schema: {
        tags,
        summary:
          "Admin: the definitions as `GET /attributes`, each with `usedBy`, how many parts have a value for it",
        querystring: attributeListQuerySchema,
        response: { 200: z.array(adminAttributeDefinitionSchema), ...errorAnswers(400, 401, 403) },
      },
      onRequest,
      config: { apiScope: "catalog:read" },
    },
    async (req) => attributes.table(req.query),
  );

  app.post(
    "/attributes",
    {
      schema: {
        tags,
        summary:
          "Admin: add an attribute to a category (a number with its unit, text, or a choice of a list), listed last",
        body: attributeCreateSchema,
        response: { 201: attributeDefinitionSchema, ...errorAnswers(400, 401, 403, 409) },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => reply.code(201).send(await attributes.create(caller(req), req.body)),
  );

  app.patch(
    "/attributes/:id",
    {
      schema: {
        tags,
        summary:
          "Admin: rename an attribute, or change its unit, choices, position or whether it filters (never its kind); 409 for a removed choice parts use",
        params: attributeParamsSchema,
        body: attributeChangeSchema,
        response: { 200: attributeDefinitionSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req) => attributes.change(caller(req), req.params.id, req.body),
  );

  app.delete(
    "/attributes/:id",
    {
      schema: {
        tags,
        summary: "Admin: remove an attribute and every part's value of it",
        params: attributeParamsSchema,
        response: { 204: z.null(), ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => {
      await attributes.remove(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/products/:id/attributes",
    {
      schema: {
        tags,
        summary:
          "Admin: replace a product's attribute values (attributes of its category; a blank value or one left out is none)",
        params: idParamsSchema,
        body: productAttributeValuesSchema,
        response: { 200: productAttributesAnswerSchema, ...errorAnswers(400, 401, 403, 404) },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req) => ({
      attributes: await attributes.setProductValues(caller(req), req.params.id, req.body),
    }),
  );
};
