// A small helper for building elements, and the page's live region.

/** h("button", {class: "x", onclick: fn, "aria-label": "..."}, child, "text", ...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "text") {
      el.textContent = value;
    } else if (key === "style") {
      el.style.cssText = value; // through the CSSOM: the page's CSP refuses style attributes
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

let liveTimer = null;

/** Say ``text`` to screen readers (the page's aria-live region). */
export function announce(text, { assertive = false } = {}) {
  const region = document.getElementById(assertive ? "live-alert" : "live");
  if (!region || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > 5) region.firstElementChild.remove();
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => {
    for (const r of document.querySelectorAll("#live, #live-alert")) clear(r);
  }, 8000);
}

/** A short message at the bottom of the page. */
export function toast(text, kind = "info", ms = 5000) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(item);
  setTimeout(() => item.remove(), ms);
}
