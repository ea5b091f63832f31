/**
 * Better Auth's endpoints the web app calls, for the OpenAPI document: they are served by one
 * catch-all route (`/api/auth/*`, routes.ts), so Fastify cannot describe them itself. Errors are
 * reshaped to `{ error, message }` like every other route.
 */
const json = (schema: object) => ({ content: { "application/json": { schema } } });
const error = { $ref: "#/components/schemas/ApiError" };
const errors = {
  "400": { description: "Invalid input", ...json(error) },
  "429": { description: "Too many attempts", ...json(error) },
};
const status = { type: "object", properties: { status: { type: "boolean" } } };
const user = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    email: { type: "string", format: "email" },
    emailVerified: { type: "boolean" },
  },
};
const email = { type: "string", format: "email", maxLength: 254 };
const password = { type: "string", minLength: 6, maxLength: 128 };

function post(operationId: string, summary: string, body: object, answer: object) {
  return {
    post: {
      tags: ["auth"],
      operationId,
      summary,
      requestBody: { required: true, ...json(body) },
      responses: { "200": { description: "Done", ...json(answer) }, ...errors },
    },
  };
}

export const authOpenApiPaths = {
  "/api/auth/sign-up/email": post(
    "signUpEmail",
    "Create an account and sign in (sets the session cookie)",
    {
      type: "object",
      required: ["name", "email", "password"],
      properties: { name: { type: "string", maxLength: 80 }, email, password },
    },
    { type: "object", properties: { user } },
  ),
  "/api/auth/sign-in/email": post(
    "signInEmail",
    "Sign in with email and password (sets the session cookie)",
    { type: "object", required: ["email", "password"], properties: { email, password } },
    { type: "object", properties: { user } },
  ),
  "/api/auth/sign-in/social": post(
    "signInSocial",
    "Start Google or GitHub sign-in: answers the provider's address to go to",
    {
      type: "object",
      required: ["provider"],
      properties: { provider: { type: "string", enum: ["google", "github"] } },
    },
    { type: "object", properties: { url: { type: "string", format: "uri" } } },
  ),
  "/api/auth/sign-in/oauth2": post(
    "signInOidc",
    "Start OpenID Connect sign-in: answers the provider's address to go to",
    {
      type: "object",
      required: ["providerId"],
      properties: { providerId: { type: "string", enum: ["oidc"] } },
    },
    { type: "object", properties: { url: { type: "string", format: "uri" } } },
  ),
  "/api/auth/sign-out": {
    post: {
      tags: ["auth"],
      operationId: "signOut",
      summary: "End the session (clears the session cookie)",
      responses: {
        "200": {
          description: "Signed out",
          ...json({ type: "object", properties: { success: { type: "boolean" } } }),
        },
        ...errors,
      },
    },
  },
  "/api/auth/get-session": {
    get: {
      tags: ["auth"],
      operationId: "getSession",
      summary: "The signed-in user, or null",
      responses: {
        "200": {
          description: "The session",
          ...json({ type: "object", nullable: true, properties: { user } }),
        },
        ...errors,
      },
    },
  },
  "/api/auth/request-password-reset": post(
    "requestPasswordReset",
    "Mail a password-reset link (the same answer whether or not the address has an account)",
    { type: "object", required: ["email"], properties: { email, redirectTo: { type: "string" } } },
    status,
  ),
  "/api/auth/reset-password": post(
    "resetPassword",
    "Set a new password with the link's token; ends every session of the account",
    {
      type: "object",
      required: ["newPassword", "token"],
      properties: { newPassword: password, token: { type: "string" } },
    },
    status,
  ),
  "/api/auth/change-password": post(
    "changePassword",
    "Change the signed-in account's password (the current one is asked for)",
    {
      type: "object",
      required: ["currentPassword", "newPassword"],
      properties: {
        currentPassword: { type: "string", maxLength: 128 },
        newPassword: password,
        revokeOtherSessions: { type: "boolean" },
      },
    },
    { type: "object", properties: { user } },
  ),
  "/api/auth/send-verification-email": post(
    "sendVerificationEmail",
    "Mail the address-verification link again",
    {
      type: "object",
      required: ["email"],
      properties: { email, callbackURL: { type: "string" } },
    },
    status,
  ),
};
