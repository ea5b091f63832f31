import { z } from "zod";
import { paymentGateways } from "./payments";

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
  payments: z.object({
    gateway: z.enum(paymentGateways),
    /** Stripe's publishable key, when the Stripe gateway is on. */
    publishableKey: z.string().optional(),
  }),
  /**
   * Buyers choose a market (`MARKET_CHOICE`, docs/pricing.md "The market chosen"): the navbar
   * shows the market picker. Absent or false: everyone is in the default market.
   */
  marketChoice: z.boolean().optional(),
  /**
   * The country the store sells from (`STORE_COUNTRY`, ISO alpha-2): where a new address starts
   * when nothing else decides (docs/shipping.md "A new address's country").
   */
  storeCountry: z.string().length(2).optional(),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;
