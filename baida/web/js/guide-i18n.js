// The words of the 玩法 page, the pattern hint and the first-hand guide, in Chinese (first) and
// English. The rules themselves (sections, items, examples) come from the hall in both
// languages (GET /api/rules/{ruleset}); only the page's own labels are here.

import { lang } from "./i18n.js";

const STRINGS = {
  // the 玩法 button and page
  "rules.button": ["玩法", "How to play"],
  "rules.button_short": ["玩法", "Rules"],
  "rules.button_label": ["玩法说明（不离开牌桌）", "How to play (stays at the table)"],
  "rules.title": ["玩法", "How to play"],
  "rules.tab.jiaxing": ["嘉兴台头和", "Jiaxing"],
  "rules.tab.wenling": ["温岭麻将", "Wenling"],
  "rules.rulesets": ["规则", "Rulesets"],
  "rules.contents": ["目录", "Contents"],
  "rules.close": ["回到牌桌", "Back to the table"],
  "rules.back": ["回大厅", "Back to the lobby"],
  "rules.loading": ["玩法加载中…", "Loading the rules…"],
  "rules.error": ["玩法加载失败：{msg}", "Could not load the rules: {msg}"],
  "rules.this_table": ["按本桌的规则选项", "With this table's rule options"],
  "rules.defaults": ["默认规则选项", "Default rule options"],
  "rules.col.item": ["项目", "Item"],
  "rules.col.when": ["条件", "When"],
  "rules.col.value": ["分值", "Value"],
  "rules.heavy": ["风、箭、1/9：{heavy} · 其他：{light}", "winds, dragons, 1s, 9s: {heavy} · others: {light}"],
  "rules.each": ["每个", "each"],
  "rules.nonwinner": ["没和的人也算", "non-winners too"],
  "rules.off": ["本桌不算", "not at this table"],
  "rules.not_a_win": ["不能和", "Not a win"],
  "rules.win_tile": ["和", "wins on"],
  "rules.wild_as": ["{wild}当 {faces}", "the {wild} stands for {faces}"],
  "rules.total.jiaxing": ["共 {tai} 台 {fan} 番：每份 {share}", "{tai} tai, {fan} fan: a share of {share}"],
  "rules.total.wenling": ["{he} 和 · {fan} 番 → {raw} → 总分 {points}", "{he} points · {fan} fan → {raw} → total {points}"],
  "rules.melds": ["副露", "melds"],
  "rules.flowers": ["花", "flowers"],
  "rules.guide_again": ["再看一遍新手引导", "Show the first-hand guide again"],
  "rules.guide_here": ["在这张牌桌上看新手引导", "Show the first-hand guide at this table"],
  "rules.prompt": ["牌桌上轮到你了", "It is your move at the table"],
  "rules.wild.jiaxing": ["百搭", "百搭"],
  "rules.wild.wenling": ["得", "得"],
  // the lobby card
  "learn.title": ["学玩法", "Learn the game"],
  "learn.text": ["怎样和牌、牌型和所有计分项：", "How to win, the patterns and every scoring item:"],
  "learn.jiaxing": ["嘉兴台头和玩法", "Jiaxing rules"],
  "learn.wenling": ["温岭麻将玩法", "Wenling rules"],
  // the pattern hint
  "pattern.label": ["牌型", "Patterns"],
  "pattern.help": ["离每种和牌牌型还差几张牌（嘉兴只有这四种能和）", "How many tiles you are from each winning pattern (Jiaxing wins only with these four)"],
  "pattern.n": ["{n}张", "{n}"],
  "pattern.done": ["成", "done"],
  "pattern.broken": ["—", "—"],
  "pattern.aria": ["离{name}还差{n}张", "{n} tiles from {name}"],
  "pattern.aria_done": ["{name}已经成了", "{name}: complete"],
  "pattern.aria_broken": ["副露已经做不成{name}", "the melds rule out {name}"],
  // the guide
  "guide.offer_title": ["第一次玩？", "New here?"],
  "guide.offer_text": ["跟着引导打第一局：和三个机器人练习，只算积分，不用银子。选一种玩法：", "Play a first hand with a short guide: a practice table against three bots, for points only, no silver. Choose the game:"],
  "guide.offer_start": ["引导：{name}", "Guide: {name}"],
  "guide.offer_skip": ["不用了", "No thanks"],
  "guide.next": ["下一步", "Next"],
  "guide.skip": ["跳过引导", "Skip the guide"],
  "guide.finish": ["开始打吧", "Let's play"],
  "guide.count": ["{i}/{n}", "{i}/{n}"],
  "guide.label": ["新手引导", "First-hand guide"],
  "guide.hand.title": ["你的手牌", "Your hand"],
  "guide.hand.text": ["最下面一排是你的牌，已经按花色排好。金框带星的是百搭，可以当任何一张牌用。", "The row at the bottom is your hand, sorted by suit. A tile with a gold frame and a star is a 百搭 (wild): it can stand for any tile."],
  "guide.pattern.title": ["嘉兴怎样和牌", "How Jiaxing wins"],
  "guide.pattern.text": ["四组加一对将还不够：整手牌必须是清一色、混一色、全老头或对对和，而且只能和自己摸到的牌。", "Four sets and a pair are not enough: the whole hand must be a full flush (清一色), a half flush (混一色), all honours (全老头) or all triplets (对对和), and you win only on a tile you draw."],
  "guide.hint.title": ["牌型提示", "The pattern hint"],
  "guide.hint.text": ["这一行告诉你离每种牌型还差几张牌，随手牌变化。挑最近的一种，朝它打。", "This line tells how many tiles you are from each pattern, as your hand changes. Pick the nearest and play toward it."],
  "guide.discard.title": ["打牌", "Discarding"],
  "guide.discard.touch": ["轮到你时，点一下牌把它抬起，再点一下就打出去。", "On your turn, tap a tile to lift it, and tap it again to discard it."],
  "guide.discard.mouse": ["轮到你时，点击一张牌把它打出去（也可以用 ←/→ 选牌，回车打出）。", "On your turn, click a tile to discard it (or pick one with ←/→ and press Enter)."],
  "guide.claim.title": ["吃、碰、杠", "Claims"],
  "guide.claim.text": ["别人打出你能用的牌时，这里会出现 碰、杠、吃 按钮和 {n} 秒倒计时。不要就点 过，时间到了也算过。", "When someone discards a tile you can use, the buttons Pon (碰, a pung), Kong (杠) and Chi (吃, a chow) appear here with a {n}-second countdown. Press Pass if you don't want it; when the time runs out you pass."],
  "guide.zimo.title": ["自摸和牌", "Winning: 自摸"],
  "guide.zimo.text": ["摸到能和的牌时，金色的 和 按钮会亮起：点它就和了。别人打出的牌不能和。", "When the tile you draw completes a winning hand, the gold Win (和) button lights up: press it. Nobody wins on someone else's discard."],
  "guide.hand16.title": ["你的手牌", "Your hand"],
  "guide.hand16.text": ["最下面一排是你的牌：16张（庄家17张），已经按花色排好。", "The row at the bottom is your hand: 16 tiles (17 for the dealer), sorted by suit."],
  "guide.de.title": ["得（百搭）", "得, the wild tile"],
  "guide.de.text": ["中间翻出的牌决定本局的得：和它一样的另外三张。和牌时得可以当任何一张普通牌，在你手里带金框和星。得不能吃、碰、杠；打出一张得，这一局你就不能和了。", "The tile turned up in the middle decides this hand's 得: the other three of its kind. In a winning hand a 得 stands for any ordinary tile; in yours it has a gold frame and a star. It cannot be used to claim, and if you discard one you cannot win this hand."],
  "guide.specials.title": ["花牌", "Flowers"],
  "guide.specials.text": ["花牌和白板（有的局还有红中、发财）是“特殊牌”：一摸到就自动亮在你的座位这里，再补一张。自己门风的花算1番。", "Flowers and 白板 (in some hands 红中 and 发财 too) are specials: one you draw is laid open here at your seat at once and replaced by another tile. A flower of your own seat is worth 1 番."],
  "guide.winany.title": ["温岭怎样和牌", "How Wenling wins"],
  "guide.winany.text": ["五组加一对将就能和，没有起和的要求。可以自摸，也可以和别人打出的牌：能和的时候，金色的 和 按钮会亮起。", "Five sets and a pair win, with no minimum value. You may win on a tile you draw or on anyone's discard: when you can, the gold Win (和) button lights up."],
  "guide.points.title": ["计分", "Scoring"],
  "guide.points.text": ["刻子、杠和花都算“和”，每1番翻一倍，凑到十位，最多500分。结算时每两家之间都要算账，没和的人之间也算；结算页会逐项列出。", "Triplets, kongs and flowers count 和 (points); every 番 doubles them, the total is rounded up to tens and stops at 500. Every player then settles with every other, the losers among themselves too; the settlement lists each item."],
  "guide.sheng.title": ["生牌阶段", "The 生牌 stage"],
  "guide.sheng.text": ["牌墙剩15对左右时会出现红色提示：从这时起，打出一张还没人打过的牌（生牌）被人和了，你要替三家付钱（包三家）。", "When about 15 pairs are left in the wall a red banner appears: from then on, if you discard a tile nobody has discarded yet (a 生牌) and someone wins on it, you pay for all three (包三家)."],
  "guide.end.title": ["就这些", "That's all"],
  "guide.end.text": ["上方的 玩法 随时可以查看全部规则和计分，不会离开牌桌。祝你好运！", "The Rules button at the top (How to play, on a wide screen) shows every rule and scoring item at any time, without leaving the table. Good luck!"],
};

/** The string ``key`` in the current language with ``{fields}`` filled in. */
export function gt(key, fields = {}) {
  const pair = STRINGS[key];
  if (!pair) return key;
  const template = pair[lang() === "zh" ? 0 : 1];
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in fields ? String(fields[name]) : m));
}

/** A ``{zh, en}`` text from the hall in the current language. */
export function tr(text) {
  if (!text) return "";
  return lang() === "zh" ? text.zh : text.en;
}
