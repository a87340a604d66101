// The page: the top bar (account, 银子, language, sound), the screens by address
// (#/ lobby, #/table/ID, #/join/CODE (an invite link), #/me, #/hand/ID) and the account.

import { get, post, setCsrf } from "./api.js";
import { closeAll } from "./dialogs.js";
import { clear, h, toast } from "./dom.js";
import { installGuide } from "./guide.js";
import { displayName, lang, onLangChange, setLang, t } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountMe } from "./me.js";
import { mountReplay } from "./replay.js";
import { mountRules } from "./rules-page.js";
import { isMuted, play, setMuted } from "./sound.js";
import { mountTable } from "./table.js";
import { installSprite } from "./tiles.js";
import { onTopbarItems, screenEndSlot, screenSlot, topbarItems } from "./topbar.js";
import { icon } from "./widgets.js";

const app = {
  me: null,
  async loadMe() {
    const { me } = await get("/api/session");
    this.me = me;
    setCsrf(me ? me.csrf : "");
  },
  async signIn(path, body = {}) {
    const { me } = await post(path, body);
    this.me = me;
    setCsrf(me.csrf);
    topBar();
    route();
  },
  async signOut() {
    await post("/api/logout", {});
    this.me = null;
    setCsrf("");
    topBar();
    // to the lobby once: a changed address routes by its hashchange, an unchanged one here
    if (location.hash === "#/") route();
    else location.hash = "#/";
  },
  /** The account as the hall now has it (a new name): the top bar shows it at once. */
  setMe(me) {
    this.me = me;
    setCsrf(me.csrf);
    topBar();
  },
  setBalance(n) {
    if (this.me) this.me.balance = n;
    const el = document.getElementById("balance");
    if (el) el.replaceWith(balancePill(n));
  },
};

let unmount = null;

/** The top bar's 银子: the number, and the word the narrowest screens leave out (its title
 * and label say it whole). */
function balancePill(n) {
  const whole = t("balance", { n });
  const [before, after] = t("balance", { n: "\u0000" }).split("\u0000");
  const word = (text) => (text ? h("span", { class: "balance-word" }, text) : null);
  return h("span", { class: "balance", id: "balance", title: whole, "aria-label": whole },
    word(before), h("span", { class: "balance-n" }, String(n)), word(after));
}

function topBar() {
  const bar = document.getElementById("topbar");
  const soundLabel = isMuted() ? t("nav.sound_off") : t("nav.sound_on");
  const sound = h("button", { type: "button", class: "btn btn-plain", id: "sound-toggle", "aria-pressed": String(!isMuted()),
    "aria-label": soundLabel, title: soundLabel,
    onclick: () => { setMuted(!isMuted()); if (!isMuted()) play("turn"); topBar(); } },
  icon(isMuted() ? "sound-off" : "sound-on"), h("span", { class: "nav-long", "aria-hidden": "true" }, soundLabel));
  const langButton = h("button", { type: "button", class: "btn btn-plain", id: "lang-toggle", "aria-label": t("nav.lang_label"),
    lang: lang() === "zh" ? "en" : "zh", onclick: () => setLang(lang() === "zh" ? "en" : "zh") }, lang() === "zh" ? "EN" : "中文");
  const account = app.me
    ? [h("span", { class: "who" }, displayName(app.me.name), app.me.guest ? h("small", {}, ` (${t("guest")})`) : null),
      balancePill(app.me.balance),
      h("button", { type: "button", class: "btn btn-plain signout", "aria-label": t("nav.signout"), title: t("nav.signout"), onclick: () => app.signOut().catch((e) => toast(e.message, "error")) },
        icon("exit"), h("span", { class: "nav-long", "aria-hidden": "true" }, t("nav.signout")))]
    : [];
  clear(bar).append(
    h("a", { class: "brand", href: "#/", "aria-label": t("app.title") }, h("span", { class: "brand-mark", "aria-hidden": "true" }, "搭"), h("span", { class: "brand-name" }, t("app.title"))),
    h("nav", { class: "nav", "aria-label": "baida" },
      h("a", { href: "#/" }, t("nav.lobby")), h("a", { href: "#/me" }, t("nav.me"))),
    screenSlot(),
    h("div", { class: "account" }, h("span", { class: "topbar-slot" }, topbarItems()), account, langButton, sound),
    screenEndSlot());
  document.title = t("app.title");
  document.querySelector(".skip").textContent = t("skip");
}

function parse() {
  const raw = location.hash.replace(/^#/, "") || "/";
  const [path, query] = raw.split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean);
  return { parts, params };
}

function route() {
  const main = document.getElementById("main");
  if (unmount) unmount();
  unmount = null;
  closeAll();
  const { parts, params } = parse();
  if (parts[0] === "table" && /^\d+$/.test(parts[1] || "")) {
    if (!app.me) {
      app.signIn("/api/guest").catch((e) => toast(e.message, "error"));
      return;
    }
    unmount = mountTable(main, app, Number(parts[1]), { autoplay: params.get("auto") === "1", sit: params.get("sit") === "1" });
  } else if (parts[0] === "join" && parts[1]) {
    unmount = joinRoom(main, decodeURIComponent(parts[1]));
  } else if (parts[0] === "hand" && /^\d+$/.test(parts[1] || "")) {
    unmount = mountReplay(main, app, Number(parts[1]));
  } else if (parts[0] === "me") {
    unmount = mountMe(main, app);
  } else if (parts[0] === "rules") {
    unmount = mountRules(main, app, parts[1]);
  } else {
    unmount = mountLobby(main, app);
  }
  document.body.dataset.screen = parts[0] || "lobby";
}

/** An invite link (#/join/CODE): signed in (as a guest if need be), the room code opens
 * its table and the page sits down there. */
function joinRoom(main, code) {
  let stopped = false;
  clear(main).append(h("p", { class: "muted joining" }, t("lobby.joining")));
  (async () => {
    try {
      if (!app.me) {
        const { me } = await post("/api/guest", {});
        app.me = me;
        setCsrf(me.csrf);
        topBar();
      }
      const { table } = await post("/api/rooms", { code });
      if (!stopped) location.replace(`#/table/${table.id}?sit=1`);
    } catch (err) {
      if (stopped) return;
      toast(err.message, "error");  // a wrong code: err.no_room, in the page's language
      location.replace("#/");
    }
  })();
  return () => { stopped = true; };
}

/** ``?room=CODE`` in the page's address is an invite too: to #/join/CODE. */
function roomInQuery() {
  const code = new URLSearchParams(location.search).get("room");
  if (!code) return;
  history.replaceState(null, "", `${location.pathname}#/join/${encodeURIComponent(code)}`);
}

/** ``body.touch`` on a touch screen without a mouse: tap to lift, and no key hints. A touch
 * on a device with both sets it, a mouse click clears it. */
function watchTouch() {
  const body = document.body;
  body.classList.toggle("touch", matchMedia("(hover: none) and (pointer: coarse)").matches);
  document.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "touch") body.classList.add("touch");
    else if (event.pointerType === "mouse") body.classList.remove("touch");
  }, true);
}

async function boot() {
  installSprite();
  watchTouch();
  document.documentElement.lang = lang() === "zh" ? "zh-CN" : "en";
  try {
    await app.loadMe();
  } catch (err) {
    toast(t("error.network", { msg: err.message }), "error");
  }
  topBar();
  onTopbarItems(topBar);
  window.addEventListener("hashchange", route);
  new ResizeObserver(() => {
    // the dialogs open below the bar, which stays at hand (language, sound, 玩法)
    document.documentElement.style.setProperty("--bar-h", `${document.getElementById("topbar").offsetHeight}px`);
  }).observe(document.getElementById("topbar"));
  installGuide();
  roomInQuery();
  onLangChange(() => { topBar(); if (!document.body.dataset.screen?.startsWith("table") && !document.body.dataset.screen?.startsWith("hand")) route(); });
  route();
  document.body.dataset.ready = "1";
}

boot();
