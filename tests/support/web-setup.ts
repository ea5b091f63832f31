import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => cleanup());

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
