import type { FastifyRequest } from "fastify";
import { forbidden, unauthorized } from "../errors";
import type { SessionUser } from "./session-reader";

export type { SessionUser };

const cache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();

/** The 403 an admin without two-factor authentication gets where it is required. */
export const ADMIN_2FA_MESSAGE =
  "Admin actions need two-factor authentication: turn it on in My Profile, then sign in again";

export function createGuards(
  readSession: (cookie: string | undefined) => Promise<SessionUser | null>,
  opts: { adminTwoFactorRequired?: boolean } = {},
) {
  /** Who is calling, from the session cookie only; one lookup per request. */
  const currentUser = (req: FastifyRequest): Promise<SessionUser | null> => {
    let pending = cache.get(req);
    if (!pending) {
      pending = readSession(req.headers.cookie);
      cache.set(req, pending);
    }
    return pending;
  };
  const requireUser = async (req: FastifyRequest): Promise<SessionUser> => {
    const u = await currentUser(req);
    if (!u) throw unauthorized();
    return u;
  };
  const requireAdmin = async (req: FastifyRequest): Promise<SessionUser> => {
    const u = await requireUser(req);
    if (u.role !== "admin") throw forbidden("Only admins can do this");
    // The session's second factor, not the account's flag: a session opened without the code
    // (before 2FA was on, say) does not count.
    if (opts.adminTwoFactorRequired && !u.secondFactor) throw forbidden(ADMIN_2FA_MESSAGE);
    return u;
  };
  const requireCustomer = async (req: FastifyRequest): Promise<SessionUser> => {
    const u = await requireUser(req);
    if (u.role === "admin") throw forbidden("This is for customers; admins cannot do it");
    return u;
  };
  return {
    currentUser,
    requireUser,
    requireAdmin,
    requireCustomer,
    // Route hooks (`onRequest`): who may call is settled before the body is read, so a stranger
    // learns 401/403, not our validation rules. Handlers then read the cached user.
    signedIn: async (req: FastifyRequest) => void (await requireUser(req)),
    adminOnly: async (req: FastifyRequest) => void (await requireAdmin(req)),
    customerOnly: async (req: FastifyRequest) => void (await requireCustomer(req)),
  };
}

export type Guards = ReturnType<typeof createGuards>;
