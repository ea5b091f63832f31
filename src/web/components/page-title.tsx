import { createContext, useContext, useEffect, type ReactNode } from "react";
import { useLocation } from "react-router";
import { canonicalPath } from "#contract/paths";

/** What a page tells browsers, search engines and link previews about itself. */
export interface PageMeta {
  /** The document title. */
  title: string;
  description: string;
}

/** The document title of a page called `title`. */
const documentTitle = (title: string) => `${title} · PartsWorks`;

/** Pages that say nothing more specific share the store's description (also in index.html). */
export const STORE_DESCRIPTION =
  "PartsWorks: car spare parts straight from the manufacturer. Brakes, filters, ignition, cooling and more, with warranty and wholesale minimum orders.";

/** Lets the build's pre-rendering learn a page's title and description (effects do not run there). */
export const PageMetaCollector = createContext<((meta: PageMeta) => void) | null>(null);

/**
 * Sets the document title, and the description, canonical link and Open Graph tags, for the
 * current page (pre-rendered pages arrive with them; the app keeps them right as it navigates).
 */
export function usePageTitle(title: string, description = STORE_DESCRIPTION) {
  const { pathname } = useLocation();
  useContext(PageMetaCollector)?.({ title: documentTitle(title), description });
  useEffect(() => {
    document.title = documentTitle(title);
    const url = `${location.origin}${canonicalPath(pathname)}`;
    setHeadTag("meta", "name", "description", "content", description);
    setHeadTag("link", "rel", "canonical", "href", url);
    setHeadTag("meta", "property", "og:title", "content", documentTitle(title));
    setHeadTag("meta", "property", "og:description", "content", description);
    setHeadTag("meta", "property", "og:url", "content", url);
  }, [title, description, pathname]);
}

/** A page under its title: the document's title (`usePageTitle`), the same heading, the page. */
export function TitledPage({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </div>
  );
}

/**
 * A part of a page under its own heading (an admin page's orders, its settings, its report): the
 * section named by its `h2`, whose id is `headingId`. `compact`: a company's page's parts (its
 * members, its ship-to addresses), closer together under a lighter heading.
 */
export function PageSection({
  headingId,
  title,
  compact = false,
  children,
}: {
  headingId: string;
  title: string;
  compact?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={headingId}
      className={compact ? "flex flex-col gap-3" : "flex flex-col gap-4"}
    >
      <h2 id={headingId} className={compact ? "text-xl font-semibold" : "text-xl font-bold"}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function setHeadTag(tag: string, key: string, name: string, attribute: string, value: string) {
  let element = document.head.querySelector(`${tag}[${key}="${name}"]`);
  if (!element) {
    element = document.createElement(tag);
    element.setAttribute(key, name);
    document.head.append(element);
  }
  element.setAttribute(attribute, value);
}
