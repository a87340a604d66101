"""The Wenling 温岭麻将 玩法 page: its sections in Chinese and English (``baida.rulebook``).

The numbers come from the options, the engine (``SHENG_PAIRS``) and the scorer's tables (the
constant 20, the limit, the rounding, each item's value); the example hands are scored by the
scorer when the page is built.
"""

from __future__ import annotations

from typing import Any

from ..engine.wenling import SHENG_PAIRS
from ..rules.options import WenlingOptions
from ..rulesets import Wenling
from ..scoring.catalogue import text
from ..scoring.wenling_items import BASE_CONSTANT, LIMIT, ROUND_TO
from .blocks import SEATS, bullets, example, items, para, section, table, tiles

TITLE = text("温岭麻将 玩法", "How to play Wenling mahjong")


def _value(groups: dict[str, Any], group: str, name: str) -> Any:
    return next(i["value"] for i in groups[group]["items"] if i["name"]["zh"] == name)


def _round_up(n: int) -> int:
    return min(LIMIT, -(-n // ROUND_TO) * ROUND_TO)


def win_examples(options: WenlingOptions) -> list[dict[str, Any]]:
    """Scored examples: a self-drawn win, and one with flowers, 白板 and a 得."""
    return [
        example(options, Wenling.name, "plain", ("自摸和牌", "A self-drawn win"),
                "123m456m789m34pEEE99s", "5p", indicator="9p",
                caption=("南家自摸 5筒；东风暗刻是大数", "South draws 5p; the East triplet "
                         "is a heavy set")),
        example(options, Wenling.name, "flowers", ("花、白板和得", "Flowers, 白板 and a 得"),
                "123m456m*4p678s55sEEE", "5p", indicator="7m", flowers=("f2", "f6", "P"),
                caption=("南家翻出了夏、兰（南的花）和一张白板，手里有一张得（7万）",
                         "South has exposed 夏 and 兰 (its own flowers) and a 白板, and holds a "
                         "得 (7m)")),
    ]


def _how_to_win(options: WenlingOptions, examples: list[dict[str, Any]]) -> dict[str, Any]:
    return section(
        "win", "怎样和牌", "How to win",
        para("温岭麻将：四个人，144 张牌（136 张加 8 张花）。每人 16 张，庄家 17 张。"
             "轮到你时摸一张、打一张。",
             "Wenling: four players, 144 tiles (136 and eight flowers); 16 tiles each and 17 for "
             "the dealer. On your turn you draw a tile and discard one."),
        bullets(
            ("和牌要 17 张：五组（顺子、刻子或杠子）加一对将。不限牌型，也没有起和分数。",
             "A win is 17 tiles: five sets (sequences, triplets or kongs) and a pair, of any "
             "shape and any value."),
            ("可以自摸，也可以和别人打出的牌，或者抢别人补杠的那张牌。",
             "You may win on a tile you draw, on another player's discard, or by robbing an "
             "added kong."),
            ("打出过得的人这局不能再和；手里还有没翻出的特殊牌也不能和。",
             "A player who discarded a 得 cannot win this hand, nor can one holding a special "
             "not yet exposed."),
            ("几种腊子（三张得、四张同组花…）轮到自己时可以直接宣布，算满贯（见腊子）。",
             "A few limit hands (腊子: three 得, four flowers of a group...) may be declared on "
             "your turn and win at the limit (see 腊子)."),
        ),
        {"type": "hands", "hands": examples},
    )


def _wild(options: WenlingOptions) -> dict[str, Any]:
    if options.flower_flip_specials:
        flower_specials = ("另一组 4 张花、白板、红中和发财",
                           "the other group's 4 flowers, 白板, 红中 and 发财")
    else:
        flower_specials = ("另一组 4 张花和白板", "the other group's 4 flowers and 白板")
    return section(
        "wild", "得和特殊牌", "得 (wild) and specials",
        para("发完牌后翻开牌墙最后一张（指示牌，不能摸），它决定哪 3 张是得、哪些是特殊牌：",
             "After the deal the last tile of the wall is turned up (the indicator, out of play). "
             "It decides which three tiles are 得 (wild) and which are specials:"),
        table(
            [("翻出的牌", "Indicator"), ("得（3 张）", "得 (3 tiles)"), ("特殊牌", "Specials")],
            [[("数牌、风牌、红中或发财", "a suit tile, a wind, 红中 or 发财"),
              ("这种牌另外 3 张", "the other 3 of that kind"),
              ("8 张花和 4 张白板", "the 8 flowers and the 4 白板")],
             [("白板", "白板"), ("另外 3 张白板", "the other 3 白板"),
              ("8 张花、红中和发财", "the 8 flowers, 红中 and 发财")],
             [("一张花（如春）", "a flower (say 春)"), ("同组另外 3 张花（夏秋冬）",
                                                  "the other 3 of its group (夏秋冬)"),
              flower_specials]],
        ),
        bullets(
            ("得可以当任何一张不是特殊牌的牌来和，和牌时自动按最高分算。得不能吃、碰、杠。",
             "A 得 stands for any tile that is not a special in a win; the reading that scores "
             "most is taken. 得 cannot be used to 吃, 碰 or 杠."),
            ("打出的得谁也不能要，打出得的人这局不能和。",
             "A discarded 得 is dead, and whoever discarded it cannot win this hand."),
            ("特殊牌不留在手里：摸到（或发到）就翻出来放在面前，再从牌墙末尾补一张。特殊牌不能打出。",
             "Specials never stay in the hand: dealt or drawn, each is laid open and replaced "
             "from the end of the wall at once. Specials cannot be discarded."),
        ),
    )


def _flowers(groups: dict[str, Any]) -> dict[str, Any]:
    seat_fan = _value(groups, "fan", "门风花牌")
    white = _value(groups, "he", "翻白板")
    return section(
        "flowers", "花牌", "Flowers",
        tiles(("f1f2f3f4", "红花：春夏秋冬", "Red flowers: 春夏秋冬"),
              ("f5f6f7f8", "黑花：梅兰竹菊", "Black flowers: 梅兰竹菊")),
        bullets(
            ("每张花属于一个门风：春、梅是东，夏、兰是南，秋、竹是西，冬、菊是北。",
             "Each flower belongs to a seat: 春 and 梅 to East, 夏 and 兰 to South, 秋 and 竹 to "
             "West, 冬 and 菊 to North."),
            (f"翻出自己门风的花，每张 {seat_fan} 番（门风花牌）；别的花不算分。",
             f"Each exposed flower of your own seat is {seat_fan} fan (门风花牌); the others "
             "score nothing."),
            (f"翻出的白板每张 {white} 和另加番（翻白板）。",
             f"Each exposed 白板 is worth {white} points and a fan (翻白板)."),
            ("同一组 4 张花都翻出是腊子。", "All four flowers of one group exposed is a 腊子."),
        ),
    )


def _play() -> dict[str, Any]:
    return section(
        "play", "打牌", "A turn and claims",
        bullets(
            ("轮到你：摸一张；能和就和（自摸），有腊子可以宣布；可以暗杠或补杠（也可以不杠，四张留在手里算"
             "暗刻）；然后打出一张。",
             "Your turn: draw; win if you can (自摸), or declare a 腊子; you may make a "
             "concealed or added kong (or not: four tiles kept in hand count as a concealed "
             "triplet); then discard one tile."),
            ("别人打出一张牌：能和就可以和；有两张一样的可以碰，三张可以明杠；只有下家可以吃。",
             "When someone discards: you may win on it; with two of that tile you may 碰, with "
             "three 杠; only the next player may 吃."),
            ("和优先于碰、杠，碰、杠优先于吃。几家都能和时，打牌人的下家优先，其次对家、上家。",
             "A win comes before 碰 and 杠, which come before 吃. If several players can win, "
             "the discarder's next player comes first, then the one opposite, then the left."),
            ("能碰不碰的牌，自己摸牌之前不能再碰同一种牌。",
             "A 碰 passed up may not be made on the same kind again before you draw."),
        ),
    )


def _total(options: WenlingOptions) -> dict[str, Any]:
    examples = ", ".join(f"{n} → {_round_up(n)}" for n in (132, 208, 736))
    return section(
        "total", "总分", "The total",
        bullets(
            (f"总分 = (和 + {BASE_CONSTANT}) × 2^番，进到 {ROUND_TO} 的倍数，"
             f"最多 {LIMIT}（满贯）。",
             f"Total = (points + {BASE_CONSTANT}) × 2^fan, rounded up to a multiple of "
             f"{ROUND_TO}, at most {LIMIT} (the limit, 满贯)."),
            (f"例：{examples}。", f"For example: {examples}."),
        ),
    )


def _lazi(options: WenlingOptions) -> dict[str, Any]:
    if options.nonwinner_sifeng_lazi:
        sifeng = ("没和的人如果四种风都是刻子或杠子（或门风是将、其他三种是刻子），也算满贯。",
                  "A player who did not win also totals the limit with all four winds as "
                  "triplets or kongs (or the own seat wind as the pair and the others as "
                  "triplets).")
    else:
        sifeng = ("本桌没和的人不算四风会齐。", "At this table a player who did not win never "
                  "scores 四风会齐.")
    return section(
        "lazi", "腊子", "腊子 (limit hands)",
        para(f"下面几种牌叫腊子：轮到自己时（摸牌、补牌或杠之后；庄家在第一次出牌前）可以直接宣布和牌，"
             f"不管其他牌是什么，算满贯 {LIMIT}。",
             f"These are 腊子: on your own turn (after a draw, a replacement or a kong; the "
             f"dealer before the first discard) you may declare one and win at once, whatever "
             f"the rest of the hand, for the limit of {LIMIT}."),
        items("limit"),
        bullets(("四风会齐不用宣布：和牌里东南西北都有，就算满贯。",
                 "四风会齐 is not declared: a winning hand holding all four winds totals the "
                 "limit."), sifeng),
    )


def _pay(options: WenlingOptions) -> dict[str, Any]:
    lines = [
        (f"其他三家各付给和牌的人：和牌人的总分 ÷ 10（最多 {LIMIT // 10}）。",
         f"Each other player pays the winner the winner's total ÷ 10 (at most {LIMIT // 10})."),
        ("没和的三家也各算自己的总分：碰杠、暗刻、门风或箭牌的将、翻出的白板，和门风刻、字牌刻的番；"
         "不算牌型、听牌和自摸。两人之间，总分低的付给高的：差额 ÷ 10。",
         "The three who did not win total their own hands too: melds, concealed triplets, a "
         "pair of the seat wind or a dragon, exposed 白板, and the seat wind and dragon "
         "triplet fan; no patterns, waits or self-draw. Between two of them, the lower total "
         "pays the higher the difference ÷ 10."),
    ]
    if options.nonwinner_base20:
        lines.append((f"没和的人的总分也加 {BASE_CONSTANT}。",
                      f"A non-winner's total adds {BASE_CONSTANT} too."))
    else:
        lines.append((f"本桌没和的人的总分不加 {BASE_CONSTANT}。",
                      f"At this table a non-winner's total does not add {BASE_CONSTANT}."))
    if options.rob_payment == "robbed":
        lines.append(("本桌：放铳或被抢杠的人一个人替三家付给和牌的人。",
                      "At this table the discarder (or the robbed player) pays the winner for "
                      "all three."))
    else:
        lines.append(("和别人打出的牌或抢杠，也是三家都付。",
                      "A win on a discard or a robbed kong is paid by all three too."))
    return section("pay", "付分", "Payments", bullets(*lines))


def _baosanjia(options: WenlingOptions) -> dict[str, Any]:
    lines = [
        ("生牌：这局还没有人打出过的牌（被吃、碰的也算打出过）。",
         "A 生牌 (live tile) is a kind nobody has discarded yet this hand (a claimed discard "
         "counts as discarded)."),
        (f"牌墙只剩 {SHENG_PAIRS} 对（{2 * SHENG_PAIRS} 张）起是生牌阶段，桌上会提醒。",
         f"From {SHENG_PAIRS} pairs ({2 * SHENG_PAIRS} tiles) left in the wall the live-tile "
         "phase (生牌阶段) begins; the table says so."),
        ("生牌阶段打出生牌被别人和了，就是包三家：自己的总分算 0，一个人付给和牌的人三家的钱，"
         "也付另外两家各自的钱和他们之间的差额。",
         "Discarding a 生牌 in that phase and being won on is 包三家: your own total counts as "
         "0, you alone pay the winner for all three, and you pay the other two what they would "
         "get and the difference between them."),
    ]
    if options.baosanjia_exemption:
        lines.append(("例外：打牌前手里全是生牌（得不算），而且打出后没听牌，就不算包三家。",
                      "Except when the hand before the discard held only 生牌 (得 aside) and is "
                      "not ready after it."))
    else:
        lines.append(("本桌没有例外。", "This table makes no exception."))
    return section("baosanjia", "生牌和包三家", "生牌 and 包三家 (paying for three)",
                   bullets(*lines))


def _huangpai(options: WenlingOptions) -> dict[str, Any]:
    n = options.huangpai_pairs
    return section(
        "huangpai", "黄牌", "Drawn hands (黄牌)",
        bullets((f"牌墙只剩 {n} 对（{2 * n} 张）时还没人和，就是黄牌："
                 "这局结束，谁都不付，庄家下庄。",
                 f"When {n} pairs ({2 * n} tiles) are left in the wall and nobody has won, the "
                 "hand is drawn (黄牌): nobody pays, and the deal passes on."),
                ("最后打出的那张牌还可以和，但不能吃碰杠。",
                 "The discard made just before may still be won on, but not claimed otherwise.")),
    )


def _dealer() -> dict[str, Any]:
    return section(
        "dealer", "庄家和门风", "Dealer and seat winds",
        bullets(SEATS, ("温岭不算风圈。", "Wenling has no round wind."),
                ("庄家和牌连庄；别人和牌或黄牌，庄家的下家坐庄。",
                 "The dealer wins: the dealer deals again. Anything else: the deal passes to "
                 "the dealer's right.")),
    )


def sections(options: WenlingOptions, groups: dict[str, Any]) -> list[dict[str, Any]]:
    """The page's sections for a table with ``options``."""
    return [
        _how_to_win(options, win_examples(options)),
        _wild(options),
        _flowers(groups),
        _play(),
        section("he", "和（基础牌点）", "Points (和)",
                para("和牌的人数下面各项；风牌、箭牌、1 和 9 的刻子杠子算大数，其他算小数。",
                     "The winner counts these points; sets of winds, dragons, 1s and 9s take "
                     "the larger value, the others the smaller."),
                items("he")),
        section("fan", "番", "Fan", para("每一番把分数翻一倍。", "Each fan doubles the score."),
                items("fan")),
        _total(options),
        _lazi(options),
        _pay(options),
        _baosanjia(options),
        _huangpai(options),
        _dealer(),
    ]
