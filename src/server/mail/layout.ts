/** A message ready for nodemailer: both versions, same words. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export const STORE = "PartsWorks";

/** Text safe inside an HTML element or attribute, quoted either way (`"` or `'`). */
export const escapeHtml = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

interface Layout {
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** A table after the paragraphs (an order's lines): label and amount per row, the last in bold. */
  table?: [string, string][];
  /** Links after the paragraphs (a parcel's tracking page): the label, then the address. */
  links?: { label: string; url: string }[];
  action?: { label: string; url: string };
  after?: string[];
  publicUrl: string;
}

/** The store's branded layout: a header bar, the words, one button, the link spelt out, a footer. */
export function layout(m: Layout): MailContent {
  const text = [
    m.greeting,
    "",
    ...m.paragraphs.flatMap((p) => [p, ""]),
    ...(m.links ?? []).flatMap((l) => [`${l.label}: ${l.url}`, ""]),
    ...(m.table ? [...m.table.map(([label, amount]) => `${label}  ${amount}`), ""] : []),
    ...(m.action ? [`${m.action.label}: ${m.action.url}`, ""] : []),
    ...(m.after ?? []).flatMap((p) => [p, ""]),
    "—",
    `${STORE} · genuine car parts · ${m.publicUrl}`,
    "",
  ].join("\n");
  const p = (s: string) =>
    `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2937">${escapeHtml(s)}</p>`;
  const button = m.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(m.action.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">${escapeHtml(m.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#4b5563">If the button does not work, open this address: <a href="${escapeHtml(m.action.url)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(m.action.url)}</a></p>`
    : "";
  const table = m.table
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:14px;color:#1f2937;border-collapse:collapse">
${m.table
  .map(
    ([label, amount], i, all) =>
      `<tr><td style="padding:6px 0;border-top:1px solid #e5e7eb${i === all.length - 1 ? ";font-weight:700" : ""}">${escapeHtml(label)}</td><td align="right" style="padding:6px 0;border-top:1px solid #e5e7eb;white-space:nowrap${i === all.length - 1 ? ";font-weight:700" : ""}">${escapeHtml(amount)}</td></tr>`,
  )
  .join("\n")}
</table>`
    : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(m.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:#111827;padding:16px 24px"><a href="${escapeHtml(m.publicUrl)}" style="color:#ffffff;text-decoration:none;font-size:20px;font-weight:700">${STORE}</a></td></tr>
<tr><td style="padding:24px">
${p(m.greeting)}
${m.paragraphs.map(p).join("\n")}
${(m.links ?? []).map((l) => `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2937"><a href="${escapeHtml(l.url)}" style="color:#1d4ed8">${escapeHtml(l.label)}</a>: <span style="word-break:break-all">${escapeHtml(l.url)}</span></p>`).join("\n")}
${table}
${button}
${(m.after ?? []).map(p).join("\n")}
</td></tr>
<tr><td style="padding:16px 24px;background:#f9fafb;font-size:12px;color:#6b7280">${STORE} · genuine car parts · <a href="${escapeHtml(m.publicUrl)}" style="color:#6b7280">${escapeHtml(m.publicUrl)}</a></td></tr>
</table></td></tr></table>
</body></html>
`;
  return { subject: m.subject, text, html };
}

export const hello = (name: string) => (name.trim() ? `Hello ${name.trim()},` : "Hello,");
