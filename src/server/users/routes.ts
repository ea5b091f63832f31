import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorSchema } from "../../contract/common";
import { adminFlagSchema, profileSchema, profileUpdateSchema } from "../../contract/users";
import type { Guards } from "../auth/guards";
import { forbidden, unauthorized } from "../errors";
import type { UserService } from "./service";

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

export const userRoutes: FastifyPluginAsyncZod<{ users: UserService; guards: Guards }> = async (
  app,
  { users, guards },
) => {
  app.get(
    "/user",
    {
      schema: {
        tags: ["users"],
        summary: "The signed-in user's profile",
        response: { 200: profileSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = await guards.requireUser(req);
      const profile = await users.getProfile(me.id);
      if (!profile) throw unauthorized();
      return profile;
    },
  );

  app.put(
    "/user",
    {
      schema: {
        tags: ["users"],
        summary: "Update the signed-in user's profile (name, email and role are read-only)",
        body: profileUpdateSchema,
        response: { 200: profileSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = await guards.requireUser(req);
      const profile = await users.updateProfile(me.id, req.body);
      if (!profile) throw unauthorized();
      return profile;
    },
  );

  app.get(
    "/admin/:email",
    {
      schema: {
        tags: ["users"],
        summary: "Whether the user with this email is an admin (own email, or any for admins)",
        params: z.object({ email: z.string().min(1).max(254) }),
        response: { 200: adminFlagSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = await guards.requireUser(req);
      const email = req.params.email.toLowerCase();
      if (email === me.email.toLowerCase()) return { admin: me.role === "admin" };
      if (me.role !== "admin") throw forbidden("You can only ask about your own account");
      return { admin: await users.isAdmin(email) };
    },
  );
};
