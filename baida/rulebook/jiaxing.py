"""The Jiaxing 台头和 玩法 page: its sections in Chinese and English (``baida.rulebook``).

The numbers come from the options and the scorer (``MIN_TAI``, the 承包 shares); every
example hand is scored by the scorer when the page is built.
"""

from __future__ import annotations

from typing import Any

from ..rules.options import JiaxingOptions
from ..rulesets import Jiaxing
from ..scoring.catalogue import text
from ..scoring.jiaxing import MIN_TAI
from ..scoring.jiaxing_settle import CONTINUING, PARTNER, PLAIN, ROB_SHARES
from .blocks import SEATS, Block, bullets, example, items, para, section, table

TITLE = text("嘉兴台头和 玩法", "How to play Jiaxing 台头和")
WIN_BY_SELF = text("南家自摸，东风圈", "South self-draws, East round")


def _hand(options: JiaxingOptions, id_: str, title: tuple[str, str], concealed: str, win: str,
          indicator: str, caption: tuple[str, str]) -> dict[str, Any]:
    return example(options, Jiaxing.name, id_, title, concealed, win, indicator=indicator,
                   caption=caption)


def pattern_examples(options: JiaxingOptions) -> list[dict[str, Any]]:
    """One scored example of each 台头和 pattern (South self-draws in the East round)."""
    return [
        _hand(options, "full_flush", ("清一色", "Full flush"), "123m456m789m234m5m", "5m", "9s",
              ("全是万子，没有风牌箭牌", "characters only, no winds or dragons")),
        _hand(options, "half_flush", ("混一色", "Half flush"), "123p56p*999pWWWC", "C", "5s",
              ("筒子加风牌箭牌；百搭（5条）当 4筒 或 7筒",
               "dots plus winds and dragons; the 百搭 (5s) stands for 4p or 7p")),
        _hand(options, "all_honours", ("全老头", "All honours"), "EEESSSWWWCCCF", "F", "9s",
              ("全是风牌和箭牌：全老头总是也是对对和",
               "winds and dragons only: an all-honours hand is always all triplets too")),
        _hand(options, "all_triplets", ("对对和", "All triplets"), "111m555p999sNNN7s", "7s", "3m",
              ("四组刻子加一对将，花色不限", "four triplets and a pair, of any suits")),
    ]


def no_pattern(options: JiaxingOptions) -> dict[str, Any]:
    if options.require_pattern:
        caption = ("四组一对都齐了，可不是四种牌型之一",
                   "four sets and a pair, but none of the four patterns")
    else:
        caption = (f"四组一对都齐了，可只有 1 台，不到 {MIN_TAI} 台",
                   f"four sets and a pair, but only 1 tai, under {MIN_TAI}")
    return _hand(options, "no_pattern", ("杂牌", "A mixed hand"), "123m456p789s234m5s", "5s",
                 "9p", caption)


def _how_to_win(options: JiaxingOptions) -> dict[str, Any]:
    if options.require_pattern:
        pattern = ("还必须是四种牌型之一：清一色、混一色、全老头或对对和。"
                   "普通的杂牌凑齐了也不能和。",
                   "And the hand must be one of four patterns: 清一色, 混一色, 全老头 or 对对和. "
                   "A mixed hand of four sets and a pair does not win.")
    else:
        pattern = (f"本桌不要求牌型：和牌至少要 {MIN_TAI} 台。",
                   f"This table does not require a pattern: a win needs at least {MIN_TAI} tai.")
    if options.allow_discard_win:
        how = ("本桌可以抓铳：自摸、抢杠以外，也可以和别人打出的牌。",
               "This table allows discard wins (抓铳): besides self-draw and robbing a kong, you "
               "may win on another player's discard.")
    else:
        how = ("只能自摸（硬自摸）：和自己摸到的牌（杠后补的牌也算），或抢别人补杠的那张牌。"
               "别人打出的牌不能和。",
               "Self-draw only (硬自摸): you win on a tile you draw (a kong's replacement too) "
               "or on the tile another player adds to a kong (抢杠). Nobody wins on a discard.")
    return section(
        "win", "怎样和牌", "How to win",
        para("嘉兴台头和（硬自摸两台起和）：四个人，136 张牌，没有花牌。每人 13 张，庄家 14 张。"
             "轮到你时摸一张、打一张。",
             "Jiaxing 台头和 (\"self-draw, two tai to win\"): four players, 136 tiles, no "
             "flowers; 13 tiles each and 14 for the dealer. On your turn you draw a tile and "
             "discard one."),
        bullets(
            ("和牌要 14 张：四组（顺子、刻子或杠子）加一对将。七对不算和。",
             "A win is 14 tiles: four sets (sequences, triplets or kongs) and a pair. Seven "
             "pairs is not a win."),
            pattern, how,
            ("每种牌型都值 2 台以上，所以叫\u201c两台起和\u201d。分数由台和番算出（见下）。",
             "Each pattern is worth 2 tai or more, hence \"two tai to win\". The score comes "
             "from tai and fan (below)."),
        ),
        {"type": "hands", "hands": [no_pattern(options)]},
    )


def _patterns(examples: list[dict[str, Any]]) -> dict[str, Any]:
    return section(
        "patterns", "四种牌型", "The four patterns",
        para("每种一个例子（南家自摸，东风圈），分数由计分程序算出。",
             "One example of each (South self-draws in the East round), scored by the scorer."),
        {"type": "hands", "hands": examples},
        bullets(("清一色、混一色、全老头三种互相排斥，但都可以再加对对和。",
                 "清一色, 混一色 and 全老头 exclude each other; each adds to 对对和.")),
    )


def _wild() -> dict[str, Any]:
    return section(
        "wild", "百搭", "The wild tile (百搭)",
        bullets(
            ("每局发完牌，翻开牌墙最后一张：这种牌另外的 3 张就是百搭。"
             "翻开的那张不能摸，所以只有 3 张百搭，也没有这种牌的普通牌。",
             "After the deal the last tile of the wall is turned up: the other three tiles of "
             "its kind are the wilds (百搭). The turned tile stays out of play, so there are "
             "exactly three 百搭 and no ordinary tile of that kind."),
            ("百搭可以当任何一张牌来和（也可以当它自己）；和牌时自动按分数最高的方式算。",
             "A 百搭 stands for any tile in a win, its own face too; the reading that scores "
             "most is taken for you."),
            ("百搭不能吃、碰、杠；打出去的百搭谁也不能要。",
             "A 百搭 cannot be used to 吃, 碰 or 杠, and a discarded 百搭 is dead: nobody may "
             "take it."),
            ("桌上的百搭有金框和星号。", "On the table a 百搭 has a gold frame and a star."),
        ),
    )


def _play(options: JiaxingOptions) -> dict[str, Any]:
    if options.allow_chi:
        chi = ("只有下家可以吃：用手里两张和上家打出的牌凑成顺子。碰、杠比吃优先。",
               "Only the next player may 吃 (chow): two tiles from hand and the discard make a "
               "sequence. 碰 and 杠 come before 吃.")
    else:
        chi = ("本桌不能吃。", "This table plays without 吃.")
    santan = (("吃、碰、明杠都计入三摊（见下）。", "Every 吃, 碰 and 杠 on a discard counts toward "
               "三摊 (below).") if options.santan_enabled else None)
    return section(
        "play", "打牌", "A turn and claims",
        bullets(*[line for line in (
            ("轮到你：摸一张；能和就和（自摸）；也可以把四张一样的牌暗杠，或把第四张加到碰过的刻子上"
             "（补杠）；然后打出一张。",
             "Your turn: draw a tile; win if you can (自摸); you may make a concealed kong of four "
             "identical tiles, or add the fourth to your own 碰 (补杠); then discard one tile."),
            ("别人打出一张牌：手里有两张一样的可以碰，有三张一样的可以杠（明杠）。",
             "When someone discards: with two of that tile you may 碰 (pung), with three you "
             "may 杠 (kong)."),
            chi,
            ("吃、碰后不摸牌，直接打一张；杠后从牌墙末尾补一张。",
             "After 吃 or 碰 you discard without drawing; after a kong you draw a replacement "
             "from the end of the wall."),
            santan,
        ) if line is not None]),
    )


def _carry(options: JiaxingOptions) -> dict[str, Any]:
    if not options.carry_fans_enabled:
        return section("carry", "黄番", "Carried fan (黄番)",
                       para("本桌不算黄番。", "This table plays without carried fan."),
                       items("carry"))
    return section(
        "carry", "黄番", "Carried fan (黄番)",
        para("每张牌桌有一个黄番池。流局一次，池里加一个黄番；每局开始时，下面三种情况也各加一个：",
             "Each table keeps a pool of carried fan. A drawn hand adds a token to it; so does "
             "each of these when a hand starts:"),
        items("carry"),
        bullets(("有人和牌时池里有黄番，这次和牌多算 1 番（黄番），池里减一个。",
                 "A win while the pool is not empty scores 1 fan more (黄番), and the pool "
                 "loses a token."),
                ("桌面中间显示池里有几个黄番。", "The centre of the table shows the pool.")),
    )


def _pay(options: JiaxingOptions, share: dict[str, Any]) -> dict[str, Any]:
    lines = [
        ("每份 = 底分 × 台 × 2^番。", "A share = base × tai × 2^fan."),
        ("自摸：其他三家各付一份。", "Self-draw: each of the other three pays one share."),
        (f"抢杠：被抢的人一个人付 {ROB_SHARES} 份，另外两家不付。",
         f"Robbing a kong: the robbed player alone pays {ROB_SHARES} shares; the other two pay "
         "nothing."),
    ]
    if options.allow_discard_win:
        n = 3 if options.discard_win_payment == "discarder_three_shares" else 1
        lines.append((f"抓铳：打出那张牌的人一个人付 {n} 份。",
                      f"A discard win: the discarder alone pays {n} share{'s' * (n > 1)}."))
    if options.winner_bonus_points:
        n = options.winner_bonus_points
        lines.append((f"和牌的人另外得到系统奖励 {n} 分。",
                      f"The winner also gets a bonus of {n} from the house."))
    tai, fan, s = share["tai"], share["fan"], share["share"]
    lines.append((f"例：上面的清一色是 {tai} 台 {fan} 番，底分 1：每份 {s}，三家各付 {s}，"
                  f"和牌的人得 {3 * s}。",
                  f"Example: the 清一色 above is {tai} tai and {fan} fan at base 1: a share is "
                  f"{s}, each of the three pays {s}, the winner gets {3 * s}."))
    return section("pay", "算分和付分", "Score and payment", bullets(*lines),
                   para("承包时份数不同，见三摊。", "A 承包 pair changes the shares: see 三摊."))


def _santan(options: JiaxingOptions) -> dict[str, Any]:
    if not options.santan_enabled:
        return section("santan", "三摊和承包", "三摊 and 承包 (liability)",
                       para("本桌不玩三摊。", "This table plays without 三摊."))
    n = options.santan_threshold
    if options.gaveup_can_win:
        quit_ = ("放弃：以后只摸打，不能吃碰杠；本桌放弃后仍可以自摸和；别人和牌时不付。",
                 "放弃 (give up): from then on draw and discard only, never claim; at this "
                 "table you may still win by self-draw; pay nothing when another wins.")
    else:
        quit_ = ("放弃：以后只摸打，不能吃碰杠，也不能和；谁和牌都不付。",
                 "放弃 (give up): from then on draw and discard only, never claim, never win, "
                 "and pay nothing whoever wins.")
    if options.rob_with_chengbao == "additive":
        rob = (f"承包时抢杠：每人付自己的承包份数，被抢的人再加 {ROB_SHARES} 份。",
               f"Robbing a kong while a pair is in force: everyone pays their 承包 shares and "
               f"the robbed player {ROB_SHARES} more.")
    else:
        rob = (f"承包时抢杠：被抢的人付承包份数（{PARTNER} 或 {CONTINUING}）再加 {ROB_SHARES} 份；"
               f"本来只付 {PLAIN} 份的人不付。",
               f"Robbing a kong while a pair is in force: the robbed player pays its 承包 shares "
               f"({PARTNER} or {CONTINUING}) plus {ROB_SHARES}; a payer of plain {PLAIN} pays "
               "nothing.")
    table_block = table(
        [("和牌的人", "The winner"), ("付分的人", "Payer"), ("份数", "Shares")],
        [[("承包方", "in a pair"), ("他的承包对家", "the winner's partner"), (str(PARTNER),) * 2],
         [("承包方", "in a pair"), ("其他坚持的人", "each other player who continued"),
          (str(CONTINUING),) * 2],
         [("非承包方（没放弃）", "in no pair, did not give up"),
          ("每个承包方", "each player in a pair"), (str(CONTINUING),) * 2],
         [("非承包方（没放弃）", "in no pair, did not give up"),
          ("其他坚持的人", "each other player who continued"), (str(PLAIN),) * 2],
         [("任何人", "anyone"), ("放弃的人", "each player who gave up"), ("0", "0")]],
    )
    return section(
        "santan", "三摊和承包", "三摊 and 承包 (liability)",
        bullets(
            (f"一家吃、碰、明杠同一家打出的牌满 {n} 次，这两家就互为承包方，到本局结束。"
             "补杠和暗杠不算；两个方向分开算。",
             f"When one player has claimed (吃, 碰, 杠) {n} times from the same player's "
             "discards, the two become a 承包 pair, liable for each other until the end of the "
             "hand. 补杠 and 暗杠 do not count; each direction is counted on its own."),
            ("差一次时桌上会提醒这两家。", "The table warns both one claim before."),
            ("三摊出现时，其他每个人选择：", "When it happens, every other player chooses:"),
            ("坚持：照常打；有人和牌时按下表多付。",
             "坚持 (continue): play on, and pay more if someone wins (table below)."),
            quit_,
        ),
        table_block,
        para(rob[0], rob[1]),
    )


def _drawn(options: JiaxingOptions) -> dict[str, Any]:
    lines: list[tuple[str, str]] = []
    if options.wall_reserve:
        n = options.wall_reserve
        lines.append((f"牌墙只剩 {n} 张时还没人和，就是流局：谁都不付。",
                      f"When only {n} tiles are left and nobody has won, the hand is drawn: "
                      "nobody pays."))
    else:
        lines.append(("牌墙摸完还没人和，就是流局：谁都不付。",
                      "When the wall runs out and nobody has won, the hand is drawn: nobody "
                      "pays."))
    if options.carry_fans_enabled:
        lines.append(("黄番池加一个黄番。", "The carried-fan pool gains a token."))
    lines.append(("流局庄家连庄。", "The dealer deals again.") if options.dealer_keeps_on_draw
                 else ("流局由下家坐庄。", "The deal passes to the next player."))
    return section("drawn", "流局", "Drawn hands", bullets(*lines))


def _dealer() -> dict[str, Any]:
    return section(
        "dealer", "庄家和风", "Dealer and winds",
        bullets(
            SEATS,
            ("庄家和牌连庄；别人和牌，庄家的下家坐庄。",
             "The dealer wins: the dealer deals again. Another player wins: the deal passes to "
             "the dealer's right."),
            ("风圈从东开始，每当庄又轮回到第一个庄家时换圈：东、南、西、北。",
             "The round wind starts at East and moves on each time the deal returns to the first "
             "dealer: East, South, West, North."),
        ),
    )


def sections(options: JiaxingOptions, groups: dict[str, Any]) -> list[dict[str, Any]]:
    """The page's sections for a table with ``options``."""
    examples = pattern_examples(options)
    tai: Block = para("台相加。", "Tai add up.")
    fan: Block = para("每一番把分数翻一倍。", "Each fan doubles the score.")
    return [
        _how_to_win(options),
        _patterns(examples),
        _wild(),
        _play(options),
        section("tai", "台", "Tai", tai, items("tai")),
        section("fan", "番", "Fan", fan, items("fan")),
        _carry(options),
        _pay(options, examples[0]["score"]["total"]),
        _santan(options),
        _drawn(options),
        _dealer(),
    ]
