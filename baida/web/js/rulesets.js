// What the page needs to know of each ruleset, in one place: the rest of the client asks
// ``ruleset(name)`` for a fact and never compares a ruleset's name itself.

const FACTS = {
  jiaxing: {
    name: "jiaxing",
    tiles: 136,            // the whole set, before the indicator is turned
    handSize: 13,          // tiles in hand between turns (14 with the one drawn)
    flowers: false,
    liability: "santan",   // 三摊 and 承包 pairs
    carryPool: true,       // 黄番 carried over drawn hands
    roundWind: true,
    options: ["allow_chi", "allow_discard_win"],  // what the lobby's form asks
    chiOption: true,       // 吃 may be switched off (the table says 不可吃)
    formula: "tai",        // 底 × 台 × 2^番, each payer paying it
    selfDrawEachPays: true,
    nonwinnerItems: false,
    pairwise: false,
    discardedWildBars: false,
    limit: null,
    patternNeeded: true,   // a win needs 清一色/混一色/全老头/对对和: the table shows how far each is
    // the first-hand guide's steps at a table of this ruleset (js/guide.js)
    guide: ["hand", "pattern", "hint", "discard", "claim", "zimo", "end"],
  },
  wenling: {
    name: "wenling",
    tiles: 144,
    handSize: 16,
    flowers: true,
    liability: "baosanjia",  // 包三家: one player pays for all
    carryPool: false,
    roundWind: false,
    options: [],
    chiOption: false,
    formula: "points",     // (和 + 20) × 2^番, rounded up to tens, capped
    selfDrawEachPays: false,
    nonwinnerItems: true,  // every non-winner's 牌点 counts
    pairwise: true,        // the payments go between every pair of players
    discardedWildBars: true,  // who discarded a 得 cannot win this hand
    limit: 500,
    patternNeeded: false,
    guide: ["hand16", "de", "specials", "winany", "discard", "claim", "points", "sheng", "end"],
  },
};

/** Every ruleset the hall plays, in the lobby's order. */
export const RULESET_NAMES = Object.keys(FACTS);

/** The rulesets the first-hand guide teaches, in the lobby's order. */
export const GUIDED_RULESETS = RULESET_NAMES.filter((n) => FACTS[n].guide);

/** The facts of ruleset ``name`` (an unknown name reads as the first ruleset). */
export function ruleset(name) {
  return FACTS[name] || FACTS[RULESET_NAMES[0]];
}
