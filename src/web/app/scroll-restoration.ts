import { useEffect, useLayoutEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

const positions = new Map<string, number>();
// Where the reader was before the page changed: read from scroll events, because by the time the
// new page is committed, a shorter page may already have clamped window.scrollY.
let lastScrollY = 0;
const rememberScroll = () => {
  lastScrollY = window.scrollY;
};

/**
 * A new page starts at the top (or at its #anchor); Back and Forward return to where the reader
 * was on that page.
 */
export function useScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    window.history.scrollRestoration = "manual";
    window.addEventListener("scroll", rememberScroll, { passive: true });
    return () => window.removeEventListener("scroll", rememberScroll);
  }, []);

  const firstPage = useRef(true);
  useLayoutEffect(() => {
    const saved = positions.get(location.key);
    const hashTarget = () =>
      location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (firstPage.current) {
      // The page the visitor opened: the browser put it where it belongs (at the top, or where
      // they already scrolled the pre-rendered page to). Scrolling here, and reading where it
      // ended, would lay out the whole new page in the middle of its first render.
      firstPage.current = false;
      hashTarget()?.scrollIntoView();
    } else {
      const target = hashTarget();
      if (navigationType === "POP" && saved !== undefined) window.scrollTo(0, saved);
      else if (target) target.scrollIntoView();
      else window.scrollTo(0, 0);
      lastScrollY = window.scrollY;
    }
    return () => {
      positions.set(location.key, lastScrollY);
    };
  }, [location, navigationType]);
}
