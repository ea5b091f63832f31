import { z } from "zod";

export const socialProviderSchema = z.object({
  /** `google` and `github` sign in through /api/auth/sign-in/social; `oidc` through sign-in/oauth2. */
  id: z.enum(["google", "github", "oidc"]),
  label: z.string(),
});
export type SocialProvider = z.infer<typeof socialProviderSchema>;

/** What the browser may know of the server's configuration: an explicit allow-list. */
export const siteConfigSchema = z.object({
  currency: z.string().length(3),
  socialProviders: z.array(socialProviderSchema),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;
