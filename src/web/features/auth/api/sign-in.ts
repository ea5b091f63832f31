import type { LoginInput, SignupInput } from "#contract/auth";
import type { SocialProvider } from "#contract/site-config";
import { apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/**
 * After signing in: who is signed in, and the product lists read before (a company buyer's cards
 * show their own prices: docs/pricing.md).
 */
const alsoProducts = { also: [queryKeys.products.all] };

export const useSignIn = () =>
  useInvalidatingMutation(
    queryKeys.session,
    (input: LoginInput) => apiSend("POST", "/auth/sign-in/email", input),
    alsoProducts,
  );

/** The second step of a sign-in with two-factor authentication: a TOTP or a backup code. */
export const useVerifyTwoFactor = () =>
  useInvalidatingMutation(
    queryKeys.session,
    ({ code, backup }: { code: string; backup: boolean }) =>
      apiSend(
        "POST",
        backup ? "/auth/two-factor/verify-backup-code" : "/auth/two-factor/verify-totp",
        { code },
      ),
    alsoProducts,
  );

export const useSignUp = () =>
  useInvalidatingMutation(queryKeys.session, (input: SignupInput) =>
    apiSend("POST", "/auth/sign-up/email", input),
  );

/**
 * Starts social sign-in: the server answers the provider's address, the browser goes there, and
 * the provider sends it back to `returnTo` signed in (or to /login with an error).
 */
export async function startSocialSignIn(provider: SocialProvider["id"], returnTo: string) {
  const common = {
    callbackURL: returnTo,
    errorCallbackURL: `/login?from=${encodeURIComponent(returnTo)}`,
  };
  const { url } =
    provider === "oidc"
      ? await apiSend<{ url: string }>("POST", "/auth/sign-in/oauth2", {
          providerId: "oidc",
          ...common,
        })
      : await apiSend<{ url: string }>("POST", "/auth/sign-in/social", { provider, ...common });
  window.location.assign(url);
}
