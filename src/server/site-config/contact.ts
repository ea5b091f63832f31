import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { contactSchema, type Contact } from "../../contract/contact";
import type { ContactDetails } from "../config";

/** The Contact page's details (`/contact`, docs/returns.md): public, from the configuration. */
export const contactRoutes: FastifyPluginAsyncZod<{ contact: ContactDetails }> = async (
  app,
  { contact },
) => {
  const answer: Contact = { ...contact };
  app.get(
    "/contact",
    {
      schema: {
        tags: ["site"],
        summary: "The store's address, returns address, phone, email and opening hours",
        response: { 200: contactSchema },
      },
    },
    async (_req, reply) => {
      reply.header("cache-control", "public, max-age=300");
      return answer;
    },
  );
};
