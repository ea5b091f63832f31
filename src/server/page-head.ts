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
 * A page cut where `withHeadMeta` changes it: `top`, the head up to its first style or script
 * (the title and meta tags come first); `styles`, the rest of the head (130 KB of inlined styles,
 * never searched or changed); `rest`, from `</head>` on. `where` names the page in errors.
 */
export interface CutPage {
  top: string;
  styles: string;
  rest: string;
}

const DESCRIBED = /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/;
const TITLED = /<title>[^<]*<\/title>/;

export function cutHead(page: string, where: string): CutPage {
  const end = page.indexOf("</head>");
  if (end < 0) throw new Error(`${where}: the page has no head`);
  const metaEnd = page.slice(0, end).search(/<(style|script)[\s>]/);
  const split = metaEnd < 0 ? end : metaEnd;
  const top = page.slice(0, split);
  if (!DESCRIBED.test(top)) throw new Error(`${where}: the page has no description meta tag`);
  if (!TITLED.test(top)) throw new Error(`${where}: the page has no title before its styles`);
  return { top, styles: page.slice(split, end), rest: page.slice(end) };
}

/**
 * The head's `top` (`cutHead`) with the page's title and description, and without the
 * template's own Open Graph tags that the page says otherwise (og:type "website").
 * Replaced by functions, not strings: a product's name could hold `$&` and the like.
 */
export function headTop(top: string, meta: HeadMeta): string {
  let head = top;
  const own = { "og:type": meta.type, "og:image": meta.image };
  for (const [property, value] of Object.entries(own)) {
    if (value !== undefined)
      head = head.replace(new RegExp(`<meta\\s+property="${property}"[^>]*>`, "g"), "");
  }
  return head
    .replace(TITLED, () => `<title>${escapeHtml(meta.title)}</title>`)
    .replace(
      DESCRIBED,
      () => `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    );
}

/** The tags a page adds at the end of its head: canonical link, Open Graph, then `extraHead`. */
export function headTags(meta: HeadMeta, extraHead: string[] = []): string {
  const tags = [
    `<link rel="canonical" href="${escapeHtml(meta.url)}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(meta.url)}" />`,
    ...(meta.type ? [`<meta property="og:type" content="${escapeHtml(meta.type)}" />`] : []),
    ...(meta.image ? [`<meta property="og:image" content="${escapeHtml(meta.image)}" />`] : []),
    ...extraHead,
  ];
  return `  ${tags.join("\n    ")}\n  `;
}

/**
 * `page` (index.html or a page made from it) with its title and description replaced, and the
 * canonical link, the Open Graph tags and `extraHead` (already HTML) added to its head: what the
 * build does for the pre-rendered pages (scripts/prerender-pages.ts). The server's part pages
 * cut their shell once and join the pieces as bytes (part-page-html.ts).
 */
export function withHeadMeta(page: string, meta: HeadMeta, extraHead: string[] = []): string {
  const { top, styles, rest } = cutHead(page, meta.url);
  return `${headTop(top, meta)}${styles}${headTags(meta, extraHead)}${rest}`;
}
