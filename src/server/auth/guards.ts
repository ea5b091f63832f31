import type { FastifyRequest } from "fastify";
import type { Membership } from "../http/request-context";
import { forbidden, unauthorized } from "../errors";
import {
  bearerKeyOf,
  caller,
  type CompanyRule,
  type Guards,
  type SessionUser,
} from "../http/request-context";
import { apiKeyMessages } from "../../contract/api-keys";

/** The 403 an admin without two-factor authentication gets where it is required. */
export const ADMIN_2FA_MESSAGE =
  "Admin actions need two-factor authentication: turn it on in My Profile, then sign in again";

export function createGuards(
  readSession: (cookie: string | undefined) => Promise<SessionUser | null>,
  /** The caller's company (`companies/membership.ts`), for the company hooks. */
  readMembership: (userId: string) => Promise<Membership | null>,
  opts: {
    adminTwoFactorRequired?: boolean;
    /**
     * The caller from memory where a read of their session is fresh (`SessionCache`), for
     * `customerPlacing`; without it, that hook reads the session as `customerOnly` does.
     */
    remembered?: (cookie: string | undefined) => Promise<SessionUser | null>;
  } = {},
): Guards {
  /**
   * Who is calling: the session cookie's user, or, for a request with `Authorization: Bearer`,
   * the admin its API key acts as (set by the API key hook, src/server/api-keys/bearer.ts) and
   * never the cookie.
   */
  const currentUser = (req: FastifyRequest): Promise<SessionUser | null> =>
    bearerKeyOf(req) !== undefined
      ? Promise.resolve(req.apiKeyCaller ?? null)
      : readSession(req.headers.cookie);
  const admin = (u: SessionUser): SessionUser => {
    if (u.role !== "admin") throw forbidden("Only admins can do this");
    // The session's second factor, not the account's flag: a session opened without the code
    // (before 2FA was on, say) does not count. An API key is no person and has no second factor:
    // the rule is for sessions only (docs/api-keys.md).
    if (opts.adminTwoFactorRequired && !u.secondFactor && !u.apiKey) {
      throw forbidden(ADMIN_2FA_MESSAGE);
    }
    return u;
  };
  const customer = (u: SessionUser): SessionUser => {
    if (u.role === "admin") throw forbidden("This is for customers; admins cannot do it");
    return u;
  };
  /**
   * A route hook: the request goes on with `req.user` set, or is answered 401/403. An API key's
   * caller passes only `adminOnly` (`keys`); the API key hook has refused it on every route
   * without a scope already, this is the second lock.
   */
  const hook =
    (check: (u: SessionUser) => SessionUser, read = currentUser, keys = false) =>
    async (req: FastifyRequest) => {
      const u = await read(req);
      if (!u) throw unauthorized();
      if (u.apiKey && !keys) throw forbidden(apiKeyMessages.notForKeys);
      req.user = check(u);
    };
  const remembered = opts.remembered;
  /**
   * A company hook: after the site guard (it reads `caller(req)`), the caller's membership is
   * read once and checked against `rule`; the request goes on with `req.company` set, or is
   * answered as the rule says. It runs as a `preHandler`, after the path, query and body are
   * checked, where the services asked it before the hooks: every answer stays as it was, and
   * the path's company id is a checked uuid.
   */
  const companyMember = (rule: CompanyRule) => async (req: FastifyRequest) => {
    const u = caller(req);
    if (u.role === "admin") {
      if (rule.admin) throw rule.admin();
      req.company = null;
      return;
    }
    const m = await readMembership(u.id);
    const ofPath = rule.ofPath ? (req.params as { id: string }).id : m?.companyId;
    if (!m || m.companyId !== ofPath) throw rule.outsider();
    if (rule.roles && !rule.roles.includes(m.role)) throw (rule.wrongRole ?? rule.outsider)();
    req.company = m;
  };
  return {
    /** Who is calling, or null: for routes anyone may call that answer a signed-in caller more. */
    currentUser,
    // Route hooks (`onRequest`): who may call is settled before the body is read, so a stranger
    // learns 401/403, not our validation rules. Handlers then read the caller: `caller(req)`.
    signedIn: hook((u) => u),
    adminOnly: hook(admin, currentUser, true),
    customerOnly: hook(customer),
    /**
     * `customerOnly` for the placing routes (an order, a checkout), answered from memory when
     * the caller's session was read moments ago: the caller then carries `stillSignedIn`, which
     * the placement's first statement checks (401 when the session ended or its user is no
     * longer a customer). That is one statement fewer on the store's busiest path.
     */
    customerPlacing: hook(
      customer,
      remembered
        ? (req) =>
            bearerKeyOf(req) !== undefined ? currentUser(req) : remembered(req.headers.cookie)
        : currentUser,
    ),
    /** A customer, or an admin held to the admin rules (the second factor where required). */
    customerOrAdmin: hook((u) => (u.role === "admin" ? admin(u) : u)),
    // Company hooks (`preHandler`, after one of the above): handlers read `companyOf(req)`.
    companyMember,
    companyOwner: (rule) => companyMember({ ...rule, roles: ["owner"] }),
    companyIfAny: async (req) => {
      req.company = await readMembership(caller(req).id);
    },
  };
}
