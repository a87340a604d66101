"""The help pages of the terminal game: the keys, then the notation and the terms.

Each page fits an 80×24 terminal. ``help_page(n, lang)`` renders page ``n`` (0-based).
"""

from __future__ import annotations

from rich.text import Text

from .i18n import check_lang, text

KEYS_ZH = """\
按键
  打牌   每张手牌下面有一个固定的键: 从左数 1-9, 0, 然后 a b d e f g i j;
         或用 ←/→ 把 ▲ 移到要打的牌下, 按 回车 或 空格 打出。
         ▲ 一开始在刚摸的牌下, 所以直接按 回车 就是摸切。
  w 和   p 碰   c 吃   k 杠 (明杠/暗杠/补杠)   l 腊子 (温岭)
  回车/空格  别人打牌时: 过;  三摊时: 坚持
  y / n  三摊时: 坚持 / 放弃 (放弃后只摸打, 不付分, 也不能和)
  r      查看本场打完的各局, 再看任何一局的结算
  ? / h  本帮助          q  退出 (先问你)
和牌不会被误丢
  可以和牌时, 画面上有 ★ 大字提示。这时打牌键和 回车/空格 都不会马上打牌或过,
  而是先问你: 按 w 和牌; 真的不和, 再按 x 确认 (其他键取消)。
  一直按着 回车 或 空格 也不会丢掉和牌。
结算
  每局结算会一直留在屏幕上, 只有按 回车 才继续 (空格和其他键不会跳过)。
  在结算画面按 r 可以回看以前各局。
桌面
  每家两行: 名字 门风 (庄) 总分, 副露和花; 下一行是手牌张数和弃牌
  (被吃碰的弃牌划掉)。"最近吃碰杠"列出别人最近的吃碰杠。▶ 表示轮到谁。
  终端至少要 80×24。"""

TERMS_ZH = """\
记法和术语
  牌     1m-9m 万, 1p-9p 筒, 1s-9s 条; 风 E 东 S 南 W 西 N 北; C 中 F 发 P 白
         花 f1-f8 春夏秋冬 梅兰竹菊 (只有温岭有花)
  百搭/得  万能牌 (嘉兴叫百搭, 温岭叫得): 由翻牌决定, 显示为 * 加牌面;
         可以当任何牌来和, 但不能吃碰杠。结算写出每张百搭当作了什么牌。
  台     嘉兴的牌型分: 红中刻 1, 门风 1, 无百搭 1, 对对和 2, 混一色 2,
         清一色 4, 全老头 10 …
  番     加倍: 每一番 ×2。嘉兴每家付 底分 × 台 × 2^番。
  和     温岭的牌点 (对子, 刻子, 暗刻, 杠 …);
         总数 (和 + 20) × 2^番, 进到 10, 最多 500
  台头和 嘉兴只能自摸 (或抢杠), 必须是清一色/混一色/全老头/对对和之一。
  三摊   一家吃碰杠另一家的牌 3 次: 两家成为承包方 (互相包对方的和牌)。
         其他人选 坚持 (照常打) 或 放弃 (只摸打, 不付分, 也不能和)。
  承包   承包的一方和牌时, 另一方付 5 份; 坚持者付 2 份 (与承包无关时 1 份);
         放弃者不付。结算列出每家实际付了几份。
  黄番   嘉兴累计的番 (流局, 包子, 老头黄, 百搭连庄), 和牌时用掉一个。
  生牌   温岭: 还没人打过的牌。余牌 30 张起是生牌阶段, 屏幕会提示。
  包三家 温岭: 生牌阶段打生牌放铳的人一人付全部 (自己牌点记 0)。
  腊子   温岭的满贯牌 (三张得, 四张同组花 …), 在自己回合宣布。
  闲家   温岭的非和牌家也算牌点, 互相按差额结算; 结算列出各家计分项。
  流局/黄牌  牌摸完没人和。"""

KEYS_EN = """\
Keys
  Discard  each tile in hand has a fixed key under it, from the left: 1-9, 0,
           a b d e f g i j. Or move ▲ with ←/→, then Enter or Space.
           ▲ starts under the tile you drew: Enter alone discards it.
  w win  p pon  c chi  k kong (exposed, concealed, added)  l lazi (Wenling)
  Enter/Space  someone discarded: pass.  Three claims (三摊): continue
  y / n   three claims: continue / give up (draw-discard, pay nothing, no win)
  r       the hands of this match so far: see any settlement again
  ? / h   this help          q  quit (asks first)
A win is never thrown away by accident
  When you can win, a ★ banner says so. Then the discard keys and Enter or
  Space do not act at once: they ask. Press w to win, or x to confirm the
  discard or the pass (any other key cancels). Holding Enter or Space down
  cannot pass a win.
Settlement
  It stays on the screen until you press Enter (Space and other keys do not
  skip it). Press r there to look at earlier hands again.
The table
  Two lines a seat: name, seat wind, dealer, match total, melds, flowers;
  then tiles in hand and discards (claimed ones struck out). "Last claims"
  lists the latest chi/pon/kong by others. ▶: to act. Needs 80×24 at least."""

TERMS_EN = """\
Notation and terms
  Tiles  1m-9m characters 万, 1p-9p dots 筒, 1s-9s bamboo 条; winds E S W N;
         dragons C red 中, F green 发, P white 白; flowers f1-f8 (Wenling)
  Wild   百搭 (Jiaxing), 得 (Wenling): set by the indicator, shown with *; any
         tile in a win, never in chi/pon/kong (the settlement says which).
  Tai 台  Jiaxing pattern points: red dragon triplet 1, seat wind 1, no
         wild 1, all triplets 2, half flush 2, full flush 4, all honours 10
  Fan 番  each fan doubles. Jiaxing: each loser pays base × tai × 2^fan.
  He 和   Wenling points (pairs, triplets, kongs, waits ...):
         total (he + 20) × 2^fan, rounded up to 10, at most 500
  台头和  Jiaxing: self-draw (or robbing a kong) only, with a full flush,
         half flush, all honours or all triplets.
  三摊    three claims by one player on another's discards make the two
         liable for each other (承包). The others continue (坚持) or give
         up (放弃: draw and discard only, pay nothing, and cannot win).
  承包    when one of a liable pair wins, the partner pays 5 shares,
         continuing players 2 (1 with no pair involved), gave-up players 0.
  黄番    Jiaxing carried fan (draws, dice doubles ...): a win uses one up.
  生牌    Wenling: a tile nobody has discarded. From 30 tiles left (live-tile
         phase) dealing a win with one pays for all (包三家).
  腊子    Wenling limit hands (three wilds, four flowers of a group ...)
  流局    (黄牌) a draw: the wall ran out and nobody won."""

PAGES = {"zh": (KEYS_ZH, TERMS_ZH), "en": (KEYS_EN, TERMS_EN)}
PAGE_COUNT = 2


def help_page(number: int, lang: str = "zh") -> Text:
    """Page ``number`` of the help (0: keys, 1: notation and terms) with its footer."""
    pages = PAGES[check_lang(lang)]
    body = pages[number % len(pages)]
    title, _, rest = body.partition("\n")
    out = Text(f"{title}  ({number % len(pages) + 1}/{len(pages)})", style="bold underline")
    for line in rest.splitlines():
        out.append("\n")
        if line and not line.startswith(" "):
            out.append(line, style="bold")
        else:
            out.append(line)
    out.append("\n")
    out.append(text("help_back", lang), style="dim")
    return out
