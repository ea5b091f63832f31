import { z } from "zod";

/** What the browser may know of the server's configuration: an explicit allow-list. */
export const siteConfigSchema = z.object({
  currency: z.string().length(3),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;
