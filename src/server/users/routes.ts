import type { RouteShorthandOptions } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { text } from "../../contract/text";
import {
  adminFlagSchema,
  customerGroupSetSchema,
  userCustomerGroupSchema,
  madeAdminSchema,
  markedDeliverableSchema,
  profileSchema,
  profileUpdateSchema,
  userEmailParamsSchema,
  userIdParamsSchema,
  userListItemSchema,
  userMessages,
  userRemovedSchema,
  usersQuerySchema,
  type Profile,
  type UserListItem,
} from "../../contract/users";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";
import { adminRoute, caller, type Guards, type SessionUser } from "../http/request-context";
import { settingRoutes } from "../http/setting-routes";
import { forbidden, notFound, unauthorized } from "../errors";
import type { UserService } from "./service";

const errors = errorAnswers(400, 401, 403);
const adminErrors = { ...errors, ...errorAnswers(404, 422) };

export const userRoutes: FastifyPluginAsyncZod<{
  users: UserService;
  /** The remove-user workflow (workflows/remove-user.ts). */
  removeUser: (
    actor: { id: string; email: string },
    targetId: string,
  ) => Promise<{ cancelledOrders: number }>;
  guards: Guards;
}> = async (app, { users, removeUser, guards }) => {
  /** Your profile, or 401 when your account is gone. */
  const profile = async (read: Promise<Profile | undefined>) => {
    const found = await read;
    if (!found) throw unauthorized();
    return found;
  };
  settingRoutes(app, "/user", {
    tags: ["users"],
    body: profileUpdateSchema,
    answer: profileSchema,
    errors,
    onRequest: guards.signedIn,
    readSummary: "The signed-in user's profile",
    read: (me) => profile(users.getProfile(me.id)),
    setSummary: "Update the signed-in user's profile (name, email and role are read-only)",
    set: (body, me) => profile(users.updateProfile(me.id, body)),
  });

  app.get(
    "/admin/:email",
    {
      schema: {
        tags: ["users"],
        summary: "Whether the user with this email is an admin (own email, or any for admins)",
        params: z.object({ email: text().min(1).max(254) }),
        response: { 200: adminFlagSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      const email = req.params.email.toLowerCase();
      if (email === me.email.toLowerCase()) return { admin: me.role === "admin" };
      if (me.role !== "admin") throw forbidden("You can only ask about your own account");
      return { admin: await users.isAdmin(email) };
    },
  );

  pagedListRoute(
    app,
    "/users",
    {
      tags: ["users", "admin"],
      summary: "Admin: every user with their role, newest first, paged; total in X-Total-Count",
      querystring: usersQuerySchema,
      item: userListItemSchema,
      errors: adminErrors,
      ...adminRoute(guards, "customers:read"),
    },
    (query) => users.list(query),
  );

  /**
   * `method path`: an admin's change to one user (their role, their bounce, their group), answered
   * with the user as they are now (`{ success: true, user }`); 404 when `change` finds no user.
   */
  const userChange = <P extends z.ZodType, B extends z.ZodType>(
    method: "put" | "delete",
    path: string,
    route: {
      summary: string;
      params: P;
      body?: B;
      answer: z.ZodType;
      who: Pick<RouteShorthandOptions, "onRequest" | "config">;
    },
    change: (
      me: SessionUser,
      params: z.infer<P>,
      body: z.infer<B>,
    ) => Promise<UserListItem | undefined>,
  ): void => {
    const { summary, params, body, answer, who } = route;
    app[method](
      path,
      {
        schema: {
          tags: ["users", "admin"],
          summary,
          params,
          ...(body ? { body } : {}),
          response: { 200: answer, ...adminErrors },
        },
        ...who,
      },
      async (req) => {
        const user = await change(caller(req), req.params as z.infer<P>, req.body as z.infer<B>);
        if (!user) throw notFound(userMessages.notFound);
        return { success: true as const, user };
      },
    );
  };
  userChange(
    "put",
    "/user/admin/:email",
    {
      summary: "Admin: make the user with this email an admin (again is harmless)",
      params: userEmailParamsSchema,
      answer: madeAdminSchema,
      who: { onRequest: guards.adminOnly },
    },
    (me, { email }) => users.grantAdmin(email, me),
  );
  userChange(
    "delete",
    "/user/admin/:email",
    {
      summary:
        "Admin: take the admin role from the user with this email (themself too), never from the last admin",
      params: userEmailParamsSchema,
      answer: madeAdminSchema,
      who: { onRequest: guards.adminOnly },
    },
    (me, { email }) => users.revokeAdmin(me, email),
  );
  userChange(
    "delete",
    "/users/:id/email-bounce",
    {
      summary:
        "Admin: mark the user's address deliverable again (takes the bounce mark off; audit-logged)",
      params: userIdParamsSchema,
      answer: markedDeliverableSchema,
      who: { onRequest: guards.adminOnly },
    },
    (me, { id }) => users.markDeliverable(me, id),
  );
  userChange(
    "put",
    "/users/:id/customer-group",
    {
      summary:
        "Admin: the customer's own customer group (what they pay while in no company; audit-logged)",
      params: userIdParamsSchema,
      body: userCustomerGroupSchema,
      answer: customerGroupSetSchema,
      who: adminRoute(guards, "prices:write"),
    },
    (me, { id }, body) => users.setCustomerGroup(me, id, body.customerGroupId),
  );

  app.delete(
    "/users/:id",
    {
      schema: {
        tags: ["users", "admin"],
        summary:
          "Admin: remove a user: sessions end, unpaid orders are cancelled, paid orders are kept",
        params: userIdParamsSchema,
        response: { 200: userRemovedSchema, ...adminErrors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => {
      const me = caller(req);
      const { cancelledOrders } = await removeUser(me, req.params.id);
      return { success: true as const, cancelledOrders };
    },
  );
};
