// Modal dialogs: focus moves into the dialog and back when it closes, Tab stays inside, and
// keys go to the dialog's own handler first.

import { h } from "./dom.js";

let stack = [];

export function modalOpen() {
  return stack.length > 0;
}

/** Open a dialog with ``body`` (elements). Options: ``label`` (its title element's id),
 * ``onKey(event)`` (return true when handled), ``focus`` (the element to focus first; default
 * the dialog itself, so that a key pressed before it appeared does nothing), ``kind``.
 * Returns {el, close}. */
export function openModal(body, { label = null, onKey = null, focus = null, kind = "" } = {}) {
  const previous = document.activeElement;
  const box = h("div", { class: `modal ${kind}`, role: "dialog", "aria-modal": "true", tabindex: "-1" }, body);
  if (label) box.setAttribute("aria-labelledby", label);
  const backdrop = h("div", { class: `backdrop ${kind ? `backdrop-${kind}` : ""}` }, box);
  const entry = { box, backdrop, onKey, previous };
  const close = () => {
    if (!backdrop.isConnected) return;
    backdrop.remove();
    stack = stack.filter((e) => e !== entry);
    if (previous && previous.isConnected && typeof previous.focus === "function") previous.focus({ preventScroll: true });
  };
  entry.close = close;
  stack.push(entry);
  document.getElementById("dialogs").append(backdrop);
  (focus || box).focus({ preventScroll: true });
  return { el: box, close };
}

export function closeAll() {
  for (const entry of [...stack]) entry.close();
}

document.addEventListener("keydown", (event) => {
  const top = stack[stack.length - 1];
  if (!top) return;
  if (top.onKey && top.onKey(event)) {
    event.preventDefault();
    event.stopPropagation();
    return;
  }
  if (event.key === "Tab") {
    const items = [...top.box.querySelectorAll("button:not([disabled]), a[href], input, select, textarea, [tabindex='0']")];
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && (document.activeElement === first || document.activeElement === top.box)) {
      last.focus();
      event.preventDefault();
    } else if (!event.shiftKey && document.activeElement === last) {
      first.focus();
      event.preventDefault();
    }
  }
  event.stopPropagation();
}, true);
