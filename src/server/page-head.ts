/** Text safe inside an HTML attribute or element. */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** What a page tells browsers, search engines and link previews about itself. */
export interface HeadMeta {
  title: string;
  description: string;
  /** The page's canonical address (absolute, or with the build's address placeholder). */
  url: string;
  /** Open Graph: the page's picture (absolute) and kind ("product"); a website otherwise. */
  image?: string;
  type?: string;
}

/**
 * `page` (index.html or a page made from it) with its title and description replaced, and the
 * canonical link, the Open Graph tags and `extraHead` (already HTML) added to its head. Used by the
 * build for the pre-rendered pages (scripts/prerender-pages.ts) and by the server for part pages.
 * Replaced by functions, not strings: a product's name could hold `$&` and the like.
 */
export function withHeadMeta(page: string, meta: HeadMeta, extraHead: string[] = []): string {
  const tags = [
    `<link rel="canonical" href="${escapeHtml(meta.url)}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(meta.url)}" />`,
    ...(meta.type ? [`<meta property="og:type" content="${escapeHtml(meta.type)}" />`] : []),
    ...(meta.image ? [`<meta property="og:image" content="${escapeHtml(meta.image)}" />`] : []),
    ...extraHead,
  ];
  // Only the head's tags before its first style or script are searched and changed: the title
  // and meta tags come first, and the rest of the head is 130 KB of inlined styles (searching it
  // took 2.3 ms of every part page's first view).
  const end = page.indexOf("</head>");
  if (end < 0) throw new Error(`${meta.url}: the page has no head`);
  const metaEnd = page.slice(0, end).search(/<(style|script)[\s>]/);
  const split = metaEnd < 0 ? end : metaEnd;
  let head = page.slice(0, split);
  const described = /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/;
  if (!described.test(head)) throw new Error(`${meta.url}: the page has no description meta tag`);
  const titled = /<title>[^<]*<\/title>/;
  if (!titled.test(head)) throw new Error(`${meta.url}: the page has no title before its styles`);
  // The template's own Open Graph tags that the page says otherwise (og:type "website").
  const own = { "og:type": meta.type, "og:image": meta.image };
  for (const [property, value] of Object.entries(own)) {
    if (value !== undefined)
      head = head.replace(new RegExp(`<meta\\s+property="${property}"[^>]*>`, "g"), "");
  }
  head = head
    .replace(titled, () => `<title>${escapeHtml(meta.title)}</title>`)
    .replace(
      described,
      () => `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    );
  return `${head}${page.slice(split, end)}  ${tags.join("\n    ")}\n  ${page.slice(end)}`;
}
