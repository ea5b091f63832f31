import { paths } from "../../contract/paths";
import { hello, layout, type MailContent } from "../mail/layout";

/** An admin: the store disabled a webhook endpoint whose deliveries kept failing. */
export function endpointDisabledMail(o: {
  name: string;
  url: string;
  failures: number;
  lastError: string | null;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: "A webhook endpoint was disabled",
    greeting: hello(o.name),
    paragraphs: [
      `The store stopped sending webhooks to ${o.url}: its last ${o.failures} deliveries failed after every retry (about 3 days each).`,
      ...(o.lastError ? [`The last attempt: ${o.lastError}.`] : []),
      "Events that happen while it is disabled are not sent to it. Deliveries still pending are sent once an admin enables it again; failed ones can be replayed from its delivery log.",
    ],
    action: {
      label: "Open the webhooks page",
      url: new URL(paths.webhooks, o.publicUrl).href,
    },
    publicUrl: o.publicUrl,
  });
}
