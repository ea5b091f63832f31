// Code that a page does not need until the visitor does something loads on the visitor's first
// sign of life on the page, so that a page opened and left alone (or measured by Lighthouse)
// downloads only what it shows at first (decision 003).

/** What shows the visitor is there. */
const INTERACTIONS = ["pointermove", "pointerdown", "touchstart", "keydown", "scroll", "wheel"];

/**
 * Calls `start` once: at the visitor's first pointer move, touch, key, scroll or wheel on the page,
 * or as soon as `near` (when given) is on the screen, whichever comes first. Returns what cancels
 * the wait (for an effect's cleanup).
 */
export function whenVisitorActs(start: () => void, near?: Element | null): () => void {
  let observer: IntersectionObserver | undefined;
  const stop = () => {
    for (const type of INTERACTIONS) window.removeEventListener(type, once);
    observer?.disconnect();
  };
  function once() {
    stop();
    start();
  }
  for (const type of INTERACTIONS) window.addEventListener(type, once, { passive: true });
  if (near && typeof IntersectionObserver !== "undefined") {
    observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) once();
    });
    observer.observe(near);
  }
  return stop;
}
