import { createContext, useContext } from "react";

/**
 * True while the build renders a page to HTML (src/web/prerender.tsx). Controls that only work
 * once the app runs (the phone menu button, the search form) are disabled in that HTML, so that
 * nothing typed or clicked before the app has started is silently lost.
 */
export const Prerendering = createContext(false);

export const usePrerendering = () => useContext(Prerendering);
