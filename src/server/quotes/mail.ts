import { hello, layout, type MailContent } from "../mail/layout";

/** Quotes (docs/quotes.md): the buyer is told their quote is priced, with the lines and expiry. */
export function quoteSentMail(q: {
  name: string;
  reference: string;
  lines: [string, string][];
  total: string;
  expiresAt: string;
  url: string;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: `Your quote ${q.reference} is ready`,
    greeting: hello(q.name),
    paragraphs: [
      `We have priced your request for quote ${q.reference}. Accept it by ${q.expiresAt} to order at these prices (shipping and tax are added at acceptance, as at checkout).`,
    ],
    table: [...q.lines, ["Total", q.total]],
    action: { label: "See the quote", url: q.url },
    after: ["Questions? Write to us in the quote's messages."],
    publicUrl: q.publicUrl,
  });
}
