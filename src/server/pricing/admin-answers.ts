import { errorAnswers } from "../api-errors";
import type { AuditActor } from "../audit/service";
import type { SessionUser } from "../http/request-context";

// What the pricing admin's routes share (price lists, customer groups, discount codes, markets).

/** Their error answers. */
export const adminErrors = errorAnswers(400, 401, 403, 404, 409);

/** The admin (or the admin an API key acts for) as the audit log names them. */
export const actor = (u: SessionUser): AuditActor => ({
  id: u.id,
  email: u.email,
  apiKey: u.apiKey,
});
