import { createContext, useContext, useEffect } from "react";

/** The document title of a page called `title`. */
const documentTitle = (title: string) => `${title} · PartsWorks`;

/** Lets the build's pre-rendering learn a page's title (effects do not run there). */
export const PageTitleCollector = createContext<((title: string) => void) | null>(null);

/** Sets the document title for the current page. */
export function usePageTitle(title: string) {
  useContext(PageTitleCollector)?.(documentTitle(title));
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
