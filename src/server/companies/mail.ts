import { layout, STORE, type MailContent } from "../mail/layout";

/** An invitation to join a company's trade account (src/server/companies/). */
export function companyInvitationMail(opts: {
  companyName: string;
  role: string;
  url: string;
  expiresInDays: number;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: `You are invited to buy for ${opts.companyName} at ${STORE}`,
    greeting: "Hello,",
    paragraphs: [
      `You are invited to join ${opts.companyName}'s trade account at ${STORE} as ${opts.role === "owner" ? "an owner" : `a ${opts.role}`}. Its members order at the company's own prices.`,
      `Accept with the link below, signed in with this email address (or create an account with it first). The link works for ${opts.expiresInDays} days.`,
    ],
    action: { label: "Accept the invitation", url: opts.url },
    after: ["If you did not expect this, ignore this email: nothing changes."],
    publicUrl: opts.publicUrl,
  });
}
