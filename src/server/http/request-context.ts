import type { FastifyContextConfig, FastifyRequest } from "fastify";
import type { SQL } from "drizzle-orm";
import type { CompanyRole } from "../../contract/companies";
import type { Role } from "../../contract/users";
import { type HttpError, unauthorized } from "../errors";

/**
 * Who is calling, as the routes of every module see it: a route's guard hook (made by auth/,
 * `createGuards`) reads the session before the body is read, answers 401/403, and leaves the
 * caller on the request, where the handler takes it with `caller(req)`.
 */
export interface SessionUser {
  id: string;
  /** The session the request came with (My Profile lists the others). */
  sessionId: string;
  email: string;
  name: string;
  role: Role;
  /** TOTP is on for the account (Better Auth's two-factor plugin). */
  twoFactorEnabled: boolean;
  /** The account's email address is verified (an unverified one holds less: checkout/). */
  emailVerified: boolean;
  /** A second factor was given for this session (auth/second-factor.ts). */
  secondFactor: boolean;
  /**
   * Set when the caller was answered from memory (`SessionCache`) rather than read for this
   * request: a boolean SQL expression, true while the session is still live and its user still
   * this customer (`stillSignedInSql`). An action that takes such a caller evaluates it in its own
   * first statement and refuses (401) when it is false; nothing else of the caller is trusted there.
   */
  stillSignedIn?: SQL;
  /**
   * Set when the caller is an API key acting as its admin (`Authorization: Bearer`,
   * src/server/api-keys/): the audit log names the key (docs/api-keys.md).
   */
  apiKey?: ApiKeyActor;
}

/** The API key a request acts through, as the audit log names it. */
export interface ApiKeyActor {
  id: string;
  name: string;
  prefix: string;
}

/**
 * The company a user belongs to, and as what, as companies/ reads it (`membershipOf`): the
 * caller's company on a route with a company hook.
 */
export interface Membership {
  companyId: string;
  role: CompanyRole;
  /** Spending limits (docs/approvals.md); null: none. */
  orderLimitCents: number | null;
  monthlyLimitCents: number | null;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The caller a route's guard hook let in (`caller(req)` reads it); null on other routes. */
    user: SessionUser | null;
    /**
     * The caller's company as a route's company hook read it (`companyOf(req)` reads it): null
     * for an admin it let through or, with `companyIfAny`, a caller in no company; undefined on
     * routes without one.
     */
    company: Membership | null | undefined;
    /**
     * The admin an `Authorization: Bearer` key acts as, once the API key hook accepted it
     * (src/server/api-keys/bearer.ts): the guards read the caller from here, never from the
     * cookie. Null on every other request.
     */
    apiKeyCaller: SessionUser | null;
  }
}

/**
 * The key of an `Authorization: Bearer …` header: a string (perhaps empty or malformed: the API
 * key hook refuses it), or undefined when the request has no such header. A request with one is
 * judged by its key only.
 */
export function bearerKeyOf(req: Pick<FastifyRequest, "headers">): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined || !/^bearer(?:[ \t]|$)/i.test(header)) return undefined;
  return header.slice("bearer".length).trim();
}

/**
 * The caller a route's guard hook (`signedIn`, `customerOnly`, `customerOrAdmin`, `adminOnly`)
 * let in: handlers read who is calling from here. A route without a hook has no caller (401).
 */
export function caller(req: FastifyRequest): SessionUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

/**
 * The caller's company as the route's company hook (`companyMember`, `companyOwner`,
 * `companyIfAny`) read it: null for an admin the hook let through, or for a caller in no company
 * on a `companyIfAny` route. A route without a company hook has none to give (a bug: 500).
 */
export function companyOf(req: FastifyRequest): Membership | null {
  if (req.company === undefined) throw new Error(`${req.url}: the route has no company hook`);
  return req.company;
}

/** Who a company hook lets through, and what it answers everyone else. */
export interface CompanyRule {
  /** Answered to a caller in no company, or (with `ofPath`) not in the path's company. */
  outsider: () => HttpError;
  /** The roles let through; every role without it. */
  roles?: readonly CompanyRole[];
  /** Answered to a member whose role is not let through; `outsider` without it. */
  wrongRole?: () => HttpError;
  /** Answered to an admin; without it an admin goes through with no company (null). */
  admin?: () => HttpError;
  /** The company must be the one the path names (`/companies/:id/…`). */
  ofPath?: boolean;
}

/** A route's `onRequest` hook: the request goes on with `req.user` set, or is answered 401/403. */
export type GuardHook = (req: FastifyRequest) => Promise<void>;

/** The guard hooks a module's routes are given (auth/guards.ts makes them). */
export interface Guards {
  /** Who is calling, or null: for routes anyone may call that answer a signed-in caller more. */
  currentUser(req: FastifyRequest): Promise<SessionUser | null>;
  signedIn: GuardHook;
  adminOnly: GuardHook;
  customerOnly: GuardHook;
  /** `customerOnly`, answered from memory when the session was read moments ago. */
  customerPlacing: GuardHook;
  /** A customer, or an admin held to the admin rules (the second factor where required). */
  customerOrAdmin: GuardHook;
  /**
   * Company hooks, a route's `preHandler` after one of the above (they read `caller(req)`): the
   * caller's membership is read once, checked, and left on the request for `companyOf(req)`.
   * A member of a company (in `rule.roles` when given); admins as `rule.admin` says.
   */
  companyMember(rule: CompanyRule): GuardHook;
  /** An owner of a company; what the others are told: `rule`. */
  companyOwner(rule: Omit<CompanyRule, "roles">): GuardHook;
  /**
   * Anyone the site guard let in, with their company or none (admins included): for routes
   * that serve customers in no company too (quotes, `/company`). Nobody is refused here.
   */
  companyIfAny: GuardHook;
}

/**
 * An admin's route that an API key may call too, with the scope it needs
 * (`src/server/api-keys/scopes.ts`): its guard and config, spread into the route's options.
 */
export function adminRoute(
  guards: Pick<Guards, "adminOnly">,
  apiScope: NonNullable<FastifyContextConfig["apiScope"]>,
) {
  return { onRequest: guards.adminOnly, config: { apiScope } } as const;
}
