// The pattern hint of a Jiaxing table: how many tiles the own hand is from each 台头和 pattern
// ("清一色 2张 · 混一色 1张 · 全老头 — · 对对和 3张"). The numbers are the hall's: its answer to
// POST /api/waits carries ``patterns`` (the evaluator's pattern distances); nothing about the
// rules is worked out here.

import { h } from "./dom.js";
import { ruleset as rulesetFacts } from "./rulesets.js";
import { gt, tr } from "./guide-i18n.js";

let last = null;  // the last answer shown: kept, dimmed, while the next one is on its way

/** The hint line for ``waits`` (the table's current /api/waits answer, or null while it is
 * asked for) at a table of ``ruleset``; null at a Wenling table. */
export function patternHintEl(waits, ruleset) {
  if (!rulesetFacts(ruleset).patternNeeded) {
    last = null;
    return null;
  }
  let patterns = waits && waits.patterns;
  const pending = !waits && last !== null;
  if (waits) last = patterns || null;
  if (pending) patterns = last;
  if (!patterns || !patterns.length) return null;
  const open = patterns.filter((p) => p.distance !== null);
  const nearest = open.length ? Math.min(...open.map((p) => p.distance)) : null;
  const parts = [];
  for (const p of patterns) {
    const name = tr(p.name);
    let value;
    let label;
    let cls = "pattern";
    if (p.distance === null) {
      value = gt("pattern.broken");
      label = gt("pattern.aria_broken", { name });
      cls += " broken";
    } else if (p.distance === 0) {
      value = gt("pattern.done");
      label = gt("pattern.aria_done", { name });
      cls += " done";
    } else {
      value = gt("pattern.n", { n: p.distance });
      label = gt("pattern.aria", { name, n: p.distance });
      if (p.distance === nearest) cls += " near";
    }
    if (parts.length) parts.push(h("span", { class: "pattern-sep", "aria-hidden": "true" }, "·"));
    parts.push(h("span", { class: cls, title: label, dataset: { pattern: p.pattern, distance: p.distance === null ? "" : String(p.distance) } },
      h("span", { class: "pattern-name" }, name), " ", h("b", {}, value),
      p.distance === null ? h("span", { class: "sr-only" }, ` (${label})`) : null));
  }
  return h("p", { class: `pattern-hint${pending ? " pending" : ""}`, title: gt("pattern.help") },
    h("span", { class: "pattern-label" }, gt("pattern.label")), ...parts);
}
