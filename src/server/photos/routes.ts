import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import { errorAnswers } from "../api-errors";
import type { RouteApp } from "../http/page";
import type { GuardHook } from "../http/request-context";
import type { StoredFile } from "../storage/storage";
import {
  photoUploadLimits,
  readPhotoUploads,
  sendPrivatePhoto,
  type PhotoRule,
  type PhotoUpload,
  type PrivatePhotoType,
} from "./private";

/** A record's private photos (a return's, a warranty claim's) as its module's routes offer them. */
export interface PrivatePhotoRoutes {
  tags: string[];
  /** Who may call both routes (the owning module's `read` and `add` decide about the record). */
  who: { onRequest: GuardHook; preHandler?: GuardHook };
  /** The upload's field, how many, and its refusals in the module's words. */
  rule: PhotoRule;
  /** One photo of the record as the upload answers it. */
  photo: z.ZodType;
  /** `:id` and `:photoId` of one photo, checked. */
  photoParams: z.ZodType;
  /** The error answers of the one photo's route (`errorAnswers(…)`). */
  errors: Record<number, z.ZodType>;
  photoSummary: string;
  /** One photo of the record `id`: its row's type and its file (404 when not theirs or gone). */
  read: (
    id: string,
    photoId: string,
    req: FastifyRequest,
  ) => Promise<{ contentType: PrivatePhotoType; file: StoredFile }>;
  addSummary: string;
  /** Stores the uploaded photos on the record `id`, answered with its photos added. */
  add: (id: string, uploads: PhotoUpload[], req: FastifyRequest) => Promise<unknown[]>;
}

/**
 * `GET path/:photoId`, one photo shown inline (`sendPrivatePhoto`), and `POST path`, photos added
 * from a multipart upload (201), in a plugin of its own with the multipart parser (at most
 * `rule.max` files of the store's image size). `path` is the record's photos (`/returns/:id/photos`).
 */
export async function privatePhotoRoutes(
  app: RouteApp,
  path: `/${string}/:id/photos`,
  routes: PrivatePhotoRoutes,
): Promise<void> {
  const { tags, who, rule } = routes;
  app.get(
    `${path}/:photoId`,
    {
      schema: {
        tags,
        summary: routes.photoSummary,
        params: routes.photoParams,
        produces: ["image/jpeg", "image/png", "image/webp"],
        response: { 200: z.string().describe("The photo: JPEG, PNG or WebP"), ...routes.errors },
      },
      ...who,
    },
    async (req, reply) => {
      const { id, photoId } = req.params as { id: string; photoId: string };
      return sendPrivatePhoto(reply, await routes.read(id, photoId, req));
    },
  );

  await app.register(async (plugin) => {
    await plugin.register(multipart, { limits: photoUploadLimits(rule.max) });
    plugin.withTypeProvider<ZodTypeProvider>().post(
      path,
      {
        schema: {
          tags,
          summary: routes.addSummary,
          consumes: ["multipart/form-data"],
          params: idParamsSchema,
          response: {
            201: z.array(routes.photo),
            ...errorAnswers(400, 401, 403, 404, 409, 413, 415, 429),
          },
        },
        ...who,
      },
      async (req, reply) => {
        const uploads = await readPhotoUploads(req, rule);
        return reply.code(201).send(await routes.add(req.params.id, uploads, req));
      },
    );
  });
}
