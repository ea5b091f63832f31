import type { FastifyRequest } from "fastify";
import type { Role } from "../../contract/users";
import { forbidden, unauthorized } from "../errors";
import type { Auth } from "./auth";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

const cache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();

/** Who is calling, from the session cookie only; one lookup per request. */
export function createGuards(auth: Auth) {
  const currentUser = (req: FastifyRequest): Promise<SessionUser | null> => {
    let pending = cache.get(req);
    if (!pending) {
      pending = readSession(auth, req);
      cache.set(req, pending);
    }
    return pending;
  };
  return {
    currentUser,
    async requireUser(req: FastifyRequest): Promise<SessionUser> {
      const u = await currentUser(req);
      if (!u) throw unauthorized();
      return u;
    },
    async requireAdmin(req: FastifyRequest): Promise<SessionUser> {
      const u = await currentUser(req);
      if (!u) throw unauthorized();
      if (u.role !== "admin") throw forbidden("Only admins can do this");
      return u;
    },
  };
}

export type Guards = ReturnType<typeof createGuards>;

async function readSession(auth: Auth, req: FastifyRequest): Promise<SessionUser | null> {
  if (!req.headers.cookie) return null;
  const headers = new Headers();
  headers.set("cookie", req.headers.cookie);
  const result = await auth.api.getSession({ headers });
  if (!result) return null;
  const u = result.user as typeof result.user & { role?: string };
  return { id: u.id, email: u.email, name: u.name, role: u.role === "admin" ? "admin" : "user" };
}
