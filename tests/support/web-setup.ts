import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => cleanup());

// How long a `findBy…`/`waitFor` waits for its condition before failing: a bound, not a pause
// (it returns as soon as the condition holds). Testing Library's 1 s failed under a shared
// machine's load (a first render of a page with 250 country names took seconds, 2026-12-05).
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no modal dialogs: enough of <dialog> for components/modal.tsx to open and close one.
const dialog: Partial<HTMLDialogElement> = HTMLDialogElement.prototype;
if (!dialog.showModal) {
  Object.defineProperty(dialog, "open", {
    get(this: HTMLDialogElement) {
      return this.hasAttribute("open");
    },
  });
  dialog.showModal = function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  dialog.close = function (this: HTMLDialogElement) {
    this.removeAttribute("open");
    this.dispatchEvent(new Event("close"));
  };
}
