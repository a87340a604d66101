// The action bar above the own hand: what the hall asks (your turn, a discard to claim, a
// kong to rob, the 三摊 question), the buttons with their countdown, and the rules that keep
// a stray key from being irreversible: a claim key arms first and acts on its second press;
// anything but an offered win asks first (the win guard); several ways to 吃 or 杠 open a
// choice. On a touch screen a lifted tile gets its 打出 button here.

import { closeAll, modalOpen, openModal } from "./dialogs.js";
import { announce, h, toast } from "./dom.js";
import { pairNames, seatName, t, tileName, tileShort, tilesShort } from "./i18n.js";
import { play } from "./sound.js";
import { sortFaces } from "./faces.js";
import { tileImg } from "./widgets.js";

const KONGS = ["mkong", "akong", "bukong"];
/** Dispatched on ``window`` when the hall takes an answer (its ack), with ``{kind}`` (the
 * prompt's): the one sign of an answer that lasts, since the ack also clears the prompt. */
export const ANSWERED = "baida:answered";
const WIN_TYPES = new Set(["win", "lazi"]);
const ARM_MS = 3000;  // a claim key acts on its second press within this time

export function makeActions(T) {
  const { s } = T;
  let armTimer = null;
  let promptModal = null;

  function offered(type) {
    return s.prompt && !s.prompt.answered ? s.prompt.actions.filter((a) => a.type === type) : [];
  }

  function act(action) {
    if (!s.prompt || s.prompt.answered) return;
    s.actId += 1;
    const id = `a${s.actId}`;
    // not sent (the connection is down): the prompt stays open, to answer once it is back
    if (!T.send({ type: "act", seq: s.prompt.seq, action, id })) return;
    s.prompt.answered = id;
    s.armed = null;
    s.lifted = null;
    closePromptModal();
    T.render();
  }

  /** The winning action offered now: a Wenling 腊子 (500, at least any 和), else 和 (null when
   * neither is). */
  function winAction() {
    return offered("lazi")[0] || offered("win")[0] || null;
  }

  /** Anything but the win while a win is offered asks first: a discard, 过, 碰, 吃, 杠 (only X
   * or the dialog's button confirms; W or 和 wins; any other key cancels). */
  function guarded(action) {
    const winning = winAction();
    if (!winning || WIN_TYPES.has(action.type)) {
      act(action);
      return;
    }
    closePromptModal();
    const title = h("h2", { id: "guard-title" }, t("guard.title"));
    const what = guardWhat(action);
    let dialog = null;
    const winKey = winning.type === "lazi" ? "L" : "W";
    const win = h("button", { type: "button", class: "btn btn-win", dataset: { act: "guard-win" }, onclick: () => { dialog.close(); act(winning); } }, h("span", {}, t(`act.${winning.type}`), h("span", { class: "key-hint" }, ` (${winKey})`)));
    const confirm = h("button", { type: "button", class: "btn btn-danger", dataset: { act: "guard-confirm" }, onclick: () => { dialog.close(); act(action); } }, h("span", {}, what, h("span", { class: "key-hint" }, " (X)")));
    const cancel = h("button", { type: "button", class: "btn", dataset: { act: "guard-cancel" }, onclick: () => dialog.close() }, h("span", {}, t("cancel"), h("span", { class: "key-hint" }, " (Esc)")));
    dialog = openModal([title, h("p", {}, h("span", { class: "keys-only" }, t("guard.text", { key: winKey, win: t(`act.${winning.type}`) })),
      h("span", { class: "touch-only" }, t("guard.text_touch", { win: t(`act.${winning.type}`) }))),
    h("div", { class: "modal-buttons" }, win, confirm, cancel)], {
      label: "guard-title",
      kind: "guard",
      focus: cancel,
      onKey: (event) => {
        if (event.repeat && (event.key === "Enter" || event.key === " ")) return true;
        const key = event.key.toLowerCase();
        if (key === "x" && !event.repeat) { dialog.close(); act(action); return true; }
        if (key === winKey.toLowerCase()) { dialog.close(); act(winning); return true; }
        if (event.key === "Escape") { dialog.close(); return true; }
        if (!["Enter", " ", "Tab"].includes(event.key)) { dialog.close(); return true; }
        return false;
      },
    });
    promptModal = dialog;
  }

  function guardWhat(action) {
    switch (action.type) {
      case "discard": return t("guard.discard", { tile: tileName(action.tile) });
      case "pass": return t("guard.pass");
      case "pon": return t("guard.claim", { what: t("act.pon") });
      case "chi": return t("guard.claim", { what: chiLabel(action) });
      default: return t("guard.claim", { what: KONGS.includes(action.type) ? kongLabel(action) : t(`act.${action.type}`) });
    }
  }

  function closePromptModal() {
    if (promptModal) {
      promptModal.close();
      promptModal = null;
    }
  }

  function discard(face) {
    const action = offered("discard").find((a) => a.tile === face);
    if (!action) {
      if (s.prompt && s.prompt.kind === "turn" && !s.prompt.answered) toast(t("table.refused", { msg: tileName(face) }), "error");
      return;
    }
    guarded(action);
  }

  /** Several ways to 吃 or 杠: a choice (the pick is the confirmation; with a win offered it
   * still asks). One way: the button acts, a key arms (see ``claimKey``). */
  function choose(actions, titleKey, label) {
    if (actions.length === 1) {
      guarded(actions[0]);
      return;
    }
    closePromptModal();
    const claimed = s.view && s.view.last_discard ? s.view.last_discard.tile : null;
    const title = h("h2", { id: "choose-title" }, t(titleKey));
    const pick = (a) => { closePromptModal(); guarded(a); };
    const buttons = actions.map((a, i) => {
      const faces = a.type === "chi" ? sortFaces([...a.tiles, claimed]) : [a.tile, a.tile, a.tile, a.tile];
      return h("button", {
        type: "button", class: "btn btn-choice", "aria-label": `${label(a)} (${i + 1})`,
        onclick: () => pick(a),
      }, h("span", { class: "tile-row" }, faces.map((f) => tileImg(f, { wilds: s.view.wilds, ruleset: s.view.ruleset, size: "small", extra: a.type === "chi" && f === claimed ? "claimed-tile" : "" }))),
      h("span", { class: "choice-key key" }, String(i + 1)));
    });
    promptModal = openModal([title, h("div", { class: "choices" }, buttons),
      h("div", { class: "modal-buttons" }, h("button", { type: "button", class: "btn", onclick: closePromptModal }, t("cancel")))], {
      label: "choose-title",
      kind: "choose",
      focus: buttons[0],
      onKey: (event) => {
        if (event.repeat) return true;
        const n = Number(event.key);
        if (n >= 1 && n <= actions.length) { pick(actions[n - 1]); return true; }
        if (event.key === "Escape") { closePromptModal(); return true; }
        return false;
      },
    });
  }

  function chiLabel(a) {
    const claimed = s.view.last_discard ? s.view.last_discard.tile : null;
    return `${t("act.chi")} ${tilesShort(sortFaces([...a.tiles, claimed]))}`;
  }

  function kongLabel(a) {
    return `${t(`act.${a.type}`)} ${tileShort(a.tile || (s.view.last_discard || {}).tile)}`;
  }

  function shortcut(key) {
    const k = key.toLowerCase();
    if (k === "w" && offered("win").length) act(offered("win")[0]);
    else if (k === "l" && offered("lazi").length) act(offered("lazi")[0]);
    else if (k === "p" && offered("pon").length) claimKey(k, offered("pon"), "act.pon", () => t("act.pon"));
    else if (k === "c" && offered("chi").length) claimKey(k, offered("chi"), "act.choose_chi", chiLabel);
    else if (k === "k" && KONGS.some((x) => offered(x).length)) claimKey(k, KONGS.flatMap((x) => offered(x)), "act.choose_kong", kongLabel);
    else return false;
    return true;
  }

  /** A claim key never acts on one press: several ways open the choice; with a win offered
   * the guard asks; otherwise the first press arms the button and the second press of the
   * same key (within ARM_MS, same prompt) acts. */
  function claimKey(k, actions, titleKey, label) {
    if (actions.length > 1) {
      choose(actions, titleKey, label);
      return;
    }
    if (winAction()) {
      guarded(actions[0]);
      return;
    }
    const now = performance.now();
    const armed = s.armed;
    if (armed && armed.key === k && armed.seq === s.prompt.seq && now - armed.at < ARM_MS) {
      act(actions[0]);
      return;
    }
    s.armed = { key: k, seq: s.prompt.seq, at: now };
    announce(t("table.press_again", { key: k.toUpperCase(), what: label(actions[0]) }), { assertive: true });
    clearTimeout(armTimer);
    armTimer = setTimeout(() => {
      if (s.armed && s.armed.at === now) {
        s.armed = null;
        T.render();
      }
    }, ARM_MS);
    T.render();
  }

  function onKey(event) {
    if (modalOpen() || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key) && s.view && s.seat !== null) {
      if (T.hand.moveCursor(event.key)) event.preventDefault();
      return;
    }
    if (event.key.length === 1 && !event.repeat && shortcut(event.key)) event.preventDefault();
  }

  // ------------------------------------------------------------------ the bar

  function promptOpened(resync) {
    const kinds = new Set(s.prompt.actions.map((a) => a.type));
    if (s.view && s.view.phase !== "ended") T.settle.collapse();
    if (s.prompt.kind === "turn") {
      s.cursor = null;  // the tile just drawn, at the right
      s.lifted = null;
      if (!resync) play(kinds.has("win") ? "alert" : "turn");
      announce(kinds.has("win") ? t("table.win_offer_self") : t("ev.your_turn"), { assertive: kinds.has("win") });
    } else if (s.prompt.kind === "santan") {
      if (!resync) play("alert");
    } else {
      if (!resync) play(kinds.has("win") ? "alert" : "turn");
      const acts = [...kinds].filter((k) => k !== "pass").map((k) => t(`act.${k}`)).join(" / ");
      announce(kinds.has("win") ? t("table.win_offer_claim") : t("ev.claim_prompt", { acts }), { assertive: kinds.has("win") });
    }
  }

  function promptText(p, win, kinds) {
    const view = s.view;
    const tile = (face) => tileImg(face, { wilds: view.wilds, ruleset: view.ruleset, size: "tiny" });
    if (p.kind === "turn") return win ? t(kinds.has("win") ? "table.win_offer_self" : "table.win_offer_lazi") : t("table.your_turn");
    if (p.kind === "claim") {
      const last = view.last_discard || {};
      return [win ? t("table.win_offer_claim") : t("table.claim_on", { who: seatName(last.seat, s.seat) }), " ", tile(last.tile)];
    }
    if (p.kind === "rob") {
      const rob = view.robbable || {};
      return [win ? t("table.win_offer_rob") : t("table.rob_on", { who: seatName(rob.seat, s.seat) }), " ", rob.tile ? tile(rob.tile) : null];
    }
    return t("santan.title");
  }

  function barEl() {
    const p = s.prompt;
    const view = s.view;
    const bar = h("div", { class: "actions", role: "group", "aria-label": t("table.actions") });
    if (!p || p.answered || s.seat === null) {
      if (view.phase !== "ended" && view.turn !== s.seat) bar.append(h("span", { class: "prompt-text muted" }, t("table.turn_of", { who: seatName(view.turn, s.seat) })));
      return bar;
    }
    const kinds = new Set(p.actions.map((a) => a.type));
    const win = kinds.has("win") || kinds.has("lazi");
    bar.classList.add(win ? "win-offer" : "asking");
    bar.append(h("span", { class: `prompt-text${win ? " loud" : ""}`, role: win ? "alert" : null }, promptText(p, win, kinds)));
    const buttons = h("span", { class: "action-buttons" });
    const armed = s.armed && s.armed.seq === p.seq ? s.armed.key : null;
    const button = (label, key, onclick, cls = "") => h("button", { type: "button", class: `btn act ${cls}${armed === key ? " armed" : ""}`, dataset: { focusKey: `act-${key}`, act: key }, onclick },
      label, h("kbd", { class: "key" }, armed === key ? `${key.toUpperCase()} ×2` : key.toUpperCase()));
    if (kinds.has("win")) buttons.append(button(t("act.win"), "w", () => act(offered("win")[0]), "btn-win"));
    if (kinds.has("lazi")) buttons.append(button(t("act.lazi"), "l", () => act(offered("lazi")[0]), "btn-win"));
    const lifted = T.hand.liftedFace();
    if (lifted) {
      buttons.append(h("button", { type: "button", class: "btn act btn-play", dataset: { act: "play", focusKey: "act-play" }, onclick: () => { s.lifted = null; discard(lifted); } },
        `${t("act.discard")} `, tileImg(lifted, { wilds: view.wilds, ruleset: view.ruleset, size: "tiny" })));
    }
    if (kinds.has("pon")) buttons.append(button(t("act.pon"), "p", () => guarded(offered("pon")[0]), "btn-claim"));
    const kongs = KONGS.flatMap((k) => offered(k));
    if (kongs.length) buttons.append(button(kongs.length === 1 ? kongLabel(kongs[0]) : `${t("act.kong")}…`, "k", () => choose(kongs, "act.choose_kong", kongLabel), "btn-claim"));
    const chis = offered("chi");
    if (chis.length) buttons.append(button(chis.length === 1 ? chiLabel(chis[0]) : `${t("act.chi")}…`, "c", () => choose(chis, "act.choose_chi", chiLabel), "btn-claim"));
    if (kinds.has("pass")) {
      buttons.append(h("button", { type: "button", class: "btn act btn-pass", dataset: { focusKey: "act-pass", act: "pass" }, onclick: () => guarded(offered("pass")[0]) }, t("act.pass")));
    }
    if (kinds.has("continue")) {
      buttons.append(h("button", { type: "button", class: "btn act", onclick: santanDialog }, `${t("act.continue")} / ${t("act.give_up")}`));
    }
    bar.append(buttons, countdownEl());
    if (armed) {
      const what = { p: t("act.pon"), c: t("act.chi"), k: t("act.kong") }[armed];
      bar.append(h("span", { class: "armed-hint", role: "status" }, t("table.press_again", { key: armed.toUpperCase(), what })));
    }
    return bar;
  }

  function countdownEl() {
    const p = s.prompt;
    if (!p || p.time_ms === null || p.time_ms === undefined) return null;
    return h("span", { class: "countdown", role: "timer", "aria-live": "off" },
      h("span", { class: "countdown-bar" }, h("span", { class: "countdown-fill" })),
      h("span", { class: "countdown-text" }));
  }

  function tick() {
    const p = s.prompt;
    const els = document.querySelectorAll(".countdown");
    if (!p || p.time_ms === null || p.time_ms === undefined || !els.length) return;
    const elapsed = performance.now() - p.at;
    const free = p.time_ms - elapsed;
    const bank = (p.bank_ms || 0) + Math.min(0, free);
    for (const el of els) {
      const fill = el.querySelector(".countdown-fill");
      const text = el.querySelector(".countdown-text");
      if (free > 0) {
        fill.style.width = `${Math.max(0, Math.min(100, (free / Math.max(p.time_ms, 1)) * 100))}%`;
        fill.classList.toggle("low", free < 3000);
        text.textContent = t("table.seconds", { n: Math.ceil(free / 1000) }) + (p.bank_ms ? ` + ${t("table.bank", { n: Math.ceil(p.bank_ms / 1000) })}` : "");
      } else {
        fill.style.width = `${Math.max(0, Math.min(100, (bank / Math.max(p.bank_ms || 1, 1)) * 100))}%`;
        fill.classList.add("low");
        text.textContent = t("table.bank", { n: Math.max(0, Math.ceil(bank / 1000)) });
      }
      el.dataset.seconds = String(Math.max(0, Math.ceil((free > 0 ? free : bank) / 1000)));
    }
  }

  function santanDialog() {
    const p = s.prompt;
    if (!p || p.kind !== "santan" || (promptModal && promptModal.el.isConnected)) return;
    const view = s.view;
    const pair = view.santan_pairs[view.santan_pairs.length - 1] || [0, 1];
    const names = pairNames(seatName(pair[0], s.seat), seatName(pair[1], s.seat));
    const canWin = Boolean((view.options || {}).gaveup_can_win);
    const keep = h("button", { type: "button", class: "btn btn-primary", dataset: { act: "continue" }, onclick: () => act(offered("continue")[0]) }, t("act.continue"));
    const quit = h("button", { type: "button", class: "btn btn-danger", dataset: { act: "give_up" }, onclick: () => act(offered("give_up")[0]) }, t("act.give_up"));
    promptModal = openModal([
      h("h2", { id: "santan-title" }, t("santan.title")),
      h("p", {}, t("santan.text", { pair: names })),
      h("p", { class: "muted" }, t("santan.explain")),
      h("ul", { class: "santan-choices" }, h("li", {}, t("santan.continue_hint")), h("li", {}, t(canWin ? "santan.give_up_can_win" : "santan.give_up_no_win"))),
      countdownEl(),
      h("div", { class: "modal-buttons" }, keep, quit),
    ], { label: "santan-title", kind: "santan", focus: keep, onKey: (event) => event.repeat && event.key === "Enter" });
    tick();
  }

  /** After each drawing: a dialog of a prompt that is gone closes; the 三摊 question opens. */
  function afterRender() {
    if (promptModal && (!s.prompt || s.prompt.answered || !promptModal.el.isConnected)) closePromptModal();
    if (s.prompt && s.prompt.kind === "santan" && !s.prompt.answered && !promptModal) santanDialog();
    tick();
  }

  function stop() {
    clearTimeout(armTimer);
    closeAll();
  }

  return { offered, discard, barEl, promptOpened, onKey, tick, afterRender, stop };
}
