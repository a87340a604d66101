// The top bar's open places. Feature modules add buttons to it (the 玩法 button: one call to
// ``addTopbarItem``), and the screen on show puts its own controls in it (the table: its
// title, the information panel and 离开) through the two slots ``screenSlot`` and
// ``screenEndSlot``. The bar itself is drawn by app.js.

const items = [];
const listeners = new Set();

/** Add a control to the top bar, before the language button, on every screen: ``render()``
 * returns an element (or null) and is called again whenever the bar is redrawn (a language
 * switch, signing in). It stays visible at the table at every size. */
export function addTopbarItem(render) {
  items.push(render);
  for (const fn of listeners) fn();
}

/** The added controls, drawn now. */
export function topbarItems() {
  return items.map((render) => render()).filter(Boolean);
}

/** ``fn`` runs when an item is added (app.js redraws the bar). */
export function onTopbarItems(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function slot(id, cls) {
  let el = document.getElementById(id);
  if (!el) {
    el = document.createElement("div");
    el.id = id;
    el.className = cls;
  }
  return el;
}

/** The place after the brand where a screen puts its own title and controls (kept across
 * redraws of the bar: the same element each time). */
export function screenSlot() {
  return slot("topbar-screen", "topbar-screen");
}

/** The place at the end of the bar (the table's 离开). */
export function screenEndSlot() {
  return slot("topbar-screen-end", "topbar-screen-end");
}
