"""The words of the game in Chinese and English: plain string tables, no rendering.

Everything a player reads goes through ``text(key, lang, **fields)`` so that another front
end (the hall's web client) can reuse the same tables: ``STRINGS``, ``ITEM_NAMES_EN``,
``TILE_SHORT`` and ``tile_label`` are data and pure functions only.

>>> text("win", "zh"), text("win", "en")
('和', 'Win')
>>> tile_label("5m", "zh"), tile_label("C", "zh"), tile_label("f2", "en")
('5万', '中', 'f2')
>>> item_name("清一色", "en")
'Full flush'
"""

from __future__ import annotations

LANGS = ("zh", "en")

STRINGS: dict[str, tuple[str, str]] = {
    # rulesets and table
    "ruleset.jiaxing": ("嘉兴台头和", "Jiaxing Taitouhe"),
    "ruleset.wenling": ("温岭麻将", "Wenling Mahjong"),
    "ruleset_short.jiaxing": ("嘉兴台头和", "Jiaxing"),
    "ruleset_short.wenling": ("温岭麻将", "Wenling"),
    "hand_no": ("第{n}局", "Hand {n}"),
    "hand_of": ("第{n}/{total}局", "Hand {n}/{total}"),
    "round_wind": ("{wind}风圈", "{wind} round"),
    "wall": ("余牌 {n}", "Wall {n}"),
    "indicator": ("翻牌 {tile}", "Indicator {tile}"),
    "wild.jiaxing": ("百搭", "Wild"),
    "wild.wenling": ("得", "Wild"),
    "specials": ("花牌", "Specials"),
    "carry_pool": ("黄番 {n}", "Carry {n}"),
    "sheng_phase": ("生牌阶段", "Live-tile phase"),
    "dealer": ("庄", "Dealer"),
    "melds": ("副露", "Melds"),
    "flowers": ("花", "Flowers"),
    "discards": ("弃牌", "Discards"),
    "drawn": ("摸", "drew"),
    "in_hand": ("{n}张", "{n} in hand:"),
    "gave_up": ("放弃", "gave up"),
    "chengbao": ("承包", "liable pair"),
    "santan_warn": (
        "⚠ {x}已吃碰杠{whose}牌 {times}: 再一次即成三摊 ({pair}互为承包方)",
        "⚠ {x} claimed {whose} discards {times}: one more claim makes {pair} liable for "
        "each other (三摊)",
    ),
    "no_chi": ("不可吃", "no chi"),
    # seats relative to the human player
    "seat.self": ("你", "You"),
    "seat.next": ("下家", "Right"),
    "seat.across": ("对家", "Across"),
    "seat.prev": ("上家", "Left"),
    "seat.n": ("{n}号位", "Seat {n}"),
    # winds
    "wind.E": ("东", "East"),
    "wind.S": ("南", "South"),
    "wind.W": ("西", "West"),
    "wind.N": ("北", "North"),
    # actions (menu labels)
    "discard": ("打", "Discard"),
    "discard_drawn": ("摸切", "discards drawn"),
    "discard_at": ("打出", "discards"),
    "win": ("和", "Win"),
    "pon": ("碰", "Pon"),
    "chi": ("吃", "Chi"),
    "kong": ("杠", "Kong"),
    "mkong": ("明杠", "Kong"),
    "akong": ("暗杠", "Concealed kong"),
    "bukong": ("补杠", "Added kong"),
    "lazi": ("腊子", "Lazi"),
    "pass": ("过", "Pass"),
    "continue": ("坚持", "Continue"),
    "give_up": ("放弃", "Give up"),
    "quit": ("退出", "quit"),
    "help": ("帮助", "help"),
    "key.space": ("空格/回车", "Space/Enter"),
    "key.go": ("回车/空格", "Enter/Space"),
    "key.go_short": ("回车", "Enter"),
    "cursor_keys": ("移▲", "move ▲"),
    "history": ("牌局", "hands"),
    "give_up_no_win": ("放弃 (不能和)", "Give up (no win)"),
    "give_up_can_win": ("放弃 (仍可自摸)", "Give up (self-draw only)"),
    "choose_one": ("选择一项 (Esc 返回):", "Choose one (Esc to go back):"),
    # prompts and messages
    "your_turn": ("轮到你出牌", "Your turn: discard"),
    "your_claim": ("{who}打出 {tile}, 你要?", "{who} discarded {tile}: claim it?"),
    "your_rob": ("{who}补杠 {tile}, 抢杠?", "{who} adds a kong of {tile}: rob it?"),
    "santan_question": (
        "三摊! {pair}成为承包方。坚持 (继续打) 还是 放弃 (只摸打, 不付分, {win})?",
        "Three claims! {pair} are now liable for each other. Continue playing, "
        "or give up (draw and discard only, pay nothing, {win})?",
    ),
    "gave_up_no_win": ("也不能和", "and no win"),
    "gave_up_self_draw": ("仍可自摸和", "a self-draw may still win"),
    "win_offer.turn": ("★ 可以和牌! 自摸 {tile} — 按 w 和牌 ★", "★ You can win! Self-draw {tile}: "
                       "press w to win ★"),
    "win_offer.lazi": ("★ 可以腊子和! 按 l 和牌 ★", "★ You can win with a lazi! Press l to win ★"),
    "win_offer.claim": ("★ 你可以和{whose} {tile}! 按 w 和牌 ★",
                        "★ You can win on {whose} {tile}! Press w to win ★"),
    "win_offer.rob": ("★ 你可以抢{whose}杠和 {tile}! 按 w 和牌 ★",
                      "★ You can win by robbing {whose} kong of {tile}! Press w to win ★"),
    "guard": ("你可以和牌! 按 w 和牌; 确定要{what}, 请按 {key} (其他键取消)",
              "You can win! Press w to win; to {what} instead, press {key} (any other key "
              "cancels)"),
    "guard.lazi": ("你可以腊子和! 按 l 和牌; 确定要{what}, 请按 {key} (其他键取消)",
                   "You can win with a lazi! Press l to win; to {what} instead, press {key} "
                   "(any other key cancels)"),
    "guard.discard": ("不和而打出 {tile}", "discard {tile} and not win"),
    "guard.pass": ("放过这张牌 (不和)", "pass and not win"),
    "cannot_discard": ("现在不能打 {tile}", "{tile} cannot be discarded now"),
    "too_small": ("终端太小 ({w}×{h}): 请放大到至少 {min_w}×{min_h}",
                  "The terminal is too small ({w}×{h}): make it at least {min_w}×{min_h}"),
    "last_claims": ("最近吃碰杠", "Last claims"),
    "claim_item": ("{who}{kind}{src}{tile}", "{who} {kind} {tile}{src}"),
    "sheng_announce": (
        "★ 生牌阶段开始 (余牌 {n}): 打出生牌点和将被包三家! ★",
        "★ Live-tile phase (wall {n}): dealing into a win with a live tile pays for all! ★",
    ),
    "invalid_key": ("无效的键 {key}: {why}", "Invalid key {key}: {why}"),
    "key.enter": ("回车", "Enter"),
    "key.space1": ("空格", "Space"),
    "not_offered": ("现在不能这样做", "that is not possible now"),
    "keys_are": ("可用的键: {keys}", "keys: {keys}"),
    "illegal": ("不合规则: {why}", "Not allowed: {why}"),
    "press_enter": ("按 回车 继续 · r 查看各局 · q 退出", "Press Enter to continue · r hands "
                    "played · q quit"),
    "enter_only": ("结算画面要按 回车 才会离开", "Only Enter leaves the settlement"),
    "history_title": ("本场各局 (↑/↓ 选择, 回车 查看结算, Esc 返回)",
                      "Hands of this match (↑/↓ choose, Enter shows the settlement, Esc back)"),
    "history_empty": ("还没有打完的牌局", "No hand has finished yet"),
    "history_back": ("←/→ 上一局/下一局 · 回车/Esc 返回列表", "←/→ previous/next hand · "
                     "Enter/Esc back to the list"),
    "history_draw": ("流局", "draw"),
    "help_back": ("←/→ 翻页 · 回车/Esc 返回", "←/→ turn the page · Enter/Esc back"),
    "records_saved": ("已保存 {n} 局的记录到 {dir} (用 baida replay 文件 重看)",
                      "Saved {n} in {dir} (replay one with baida replay FILE)"),
    "record_failed": ("无法保存记录: {why}", "Could not save the record: {why}"),
    "goodbye": ("再见!", "Goodbye!"),
    "interrupted": ("对局中断。", "Match interrupted."),
    "eof": ("输入结束, 对局中断。", "End of input: match stopped."),
    "bots_are": ("对手: {name}", "Opponents: {name}"),
    "seed_is": ("种子 {seed}", "seed {seed}"),
    "confirm_quit": ("确定退出? (y/n)", "Really quit? (y/n)"),
    # events (the log)
    "ev.hand_start": ("开局: 庄家 {dealer}, 骰子 {dice}", "Deal: dealer {dealer}, dice {dice}"),
    "ev.carry_tokens": ("本局累计番: {names}", "Carry fans this hand: {names}"),
    "ev.draw_self": ("你摸到 {tile}", "You drew {tile}"),
    "ev.discard": ("{who} 打 {tile}", "{who}: discard {tile}"),
    "ev.chi": ("{who} 吃 {tile}", "{who}: chi {tile}"),
    "ev.pon": ("{who} 碰 {tile}", "{who}: pon {tile}"),
    "ev.mkong": ("{who} 明杠 {tile}", "{who}: kong {tile}"),
    "ev.akong": ("{who} 暗杠", "{who}: concealed kong"),
    "ev.akong_tile": ("{who} 暗杠 {tile}", "{who}: concealed kong {tile}"),
    "ev.bukong": ("{who} 补杠 {tile}", "{who}: added kong {tile}"),
    "ev.kong_robbed": ("{by} 抢{whose}杠 {tile}", "{by} robbed {whose} kong of {tile}"),
    "ev.flower": ("{who} 补花 {tile}", "{who}: expose {tile}"),
    "ev.santan": ("三摊: {pair} 互为承包方", "Three claims: {pair} are liable for each other"),
    "ev.santan_choice": ("{who} 选择 {choice}", "{who}: {choice}"),
    "ev.win": ("{who} 和了! {how} {tile}", "{who} won {how}: {tile}"),
    # settlement
    "settlement": ("结算", "Settlement"),
    "outcome.draw.jiaxing": ("流局 (荒庄)", "Draw: the wall is exhausted"),
    "outcome.draw.wenling": ("黄牌, 不计分", "Draw (黄牌): no payments"),
    "win_by.self_draw": ("自摸", "by self-draw"),
    "win_by.discard": ("抓铳", "on a discard"),
    "win_by.rob_kong": ("抢杠", "by robbing a kong"),
    "win_by.lazi": ("腊子和", "with a lazi"),
    "winner_line": ("{who} 和了 · {how} {tile}", "{who} won {how}: {tile}"),
    "winner_from": ("放铳: {who}", "Dealt in by {who}"),
    "liable": ("包三家: {who}", "Pays for all (包三家): {who}"),
    "tai": ("台", "Tai"),
    "fan": ("番", "Fan"),
    "unit.tai": ("台", " tai"),
    "unit.fan": ("番", " fan"),
    "meld.chi": ("吃", "Chi"),
    "meld.pon": ("碰", "Pon"),
    "meld.mkong": ("明杠", "Kong"),
    "meld.bukong": ("补杠", "Kong+"),
    "meld.akong": ("暗杠", "Closed"),
    "base_items": ("和 (基础牌点)", "Base points"),
    "points_jiaxing": (
        "底 {base} × {tai}台 × 2^{fan}番 = {points}",
        "base {base} × {tai} tai × 2^{fan} fan = {points}",
    ),
    "points_wenling": (
        "({base_points} + 20) × 2^{fan}番 = {raw} → {points}",
        "({base_points} + 20) × 2^{fan} fan = {raw} → {points}",
    ),
    "limit_wenling": ("满贯 {points}", "Limit hand {points}"),
    "wenling_totals": ("牌点", "Points"),
    "payments": ("本局得失", "This hand"),
    "match_totals": ("总分", "Match total"),
    "santan_paid": ("三摊 ({pairs}), 每份 {share}: {paid}", "Three claims ({pairs}), one share = "
                    "{share}: {paid}"),
    "shares": ("{who} 付 {n} 份", "{who} paid {n}"),
    "shares_gave_up": ("{who} 放弃: 不付, 也不能和",
                       "{who} gave up: paid nothing and could not win"),
    "shares_gave_up_can_win": ("{who} 放弃: 不付 (仍可自摸和)",
                               "{who} gave up: paid nothing (could still win by self-draw)"),
    "wilds_stood": ("{wild}当作: {faces}", "{wild} stood for: {faces}"),
    "nonwinner_items": ("闲家计分项", "Non-winners' items"),
    "liable_zero": ("被包: 牌点记 0", "liable: counts 0"),
    "carry_after": ("黄番池 → {n}", "Carry pool → {n}"),
    "illegal_win": ("不成和: {reason}", "Not a legal win: {reason}"),
    "hands_revealed": ("各家手牌", "All hands"),
    "match_over": ("比赛结束", "Match over"),
    "final_standings": ("最终排名", "Final standings"),
    "player": ("玩家", "Player"),
    "rank": ("名次", "Rank"),
}

# English names of the scoring items the scorer reports by their Chinese name (SCORING_API.md).
ITEM_NAMES_EN: dict[str, str] = {
    # Jiaxing 台
    "红中刻": "Red dragon triplet",
    "发财刻": "Green dragon triplet",
    "白板刻": "White dragon triplet",
    "门风": "Seat wind triplet",
    "风圈": "Round wind triplet",
    "无百搭": "No wild",
    "对对和": "All triplets",
    "混一色": "Half flush",
    "清一色": "Full flush",
    "全老头": "All honours",
    # Jiaxing 番
    "三百搭": "Three wilds",
    "杠上开花": "Win on a kong replacement",
    "单吊": "Single wait",
    "黄番": "Carried fan",
    "海底捞月": "Last tile",
    "天和": "Heavenly hand",
    "地和": "Earthly hand",
    "老头黄": "Honour wild",
    "包子": "Dice double",
    "百搭连庄": "Same wild again",
    # Wenling 和 (base points)
    "对子": "Valued pair",
    "刻子": "Exposed triplet",
    "暗刻": "Concealed triplet",
    "明杠": "Exposed kong",
    "暗杠": "Concealed kong",
    "翻白板": "Exposed White",
    "翻红中": "Exposed Red",
    "翻发财": "Exposed Green",
    "嵌档": "Closed wait",
    "靠柄": "Edge wait",
    "自摸": "Self-draw",
    # Wenling 番
    "门风花牌": "Seat flower",
    "门风刻": "Seat wind triplet",
    "字牌刻": "Dragon triplet",
    "旁和": "All sequences, two-sided wait",
    "无得": "No wild",
    "2张得": "Two wilds",
    "抢杠和": "Robbing a kong",
    "自摸得": "Self-drawn wild",
    "四风会齐": "All four winds",
    "3张得": "Three wilds (limit)",
    "4张红花": "Four red flowers",
    "4张黑花": "Four black flowers",
    "4张白板": "Four Whites",
    "4张红中": "Four Reds",
    "4张发财": "Four Greens",
    "暗杠门风": "Concealed seat-wind kong",
    "暗杠字牌": "Concealed dragon kong",
    "腊子": "Lazi",
}

# Short tile labels: Chinese uses a digit and the suit character (5万), one character for
# honours and flowers; English uses the project notation (5m, E, C, f1).
_SUIT_ZH = "万筒条"
_HONOUR_ZH = {"E": "东", "S": "南", "W": "西", "N": "北", "C": "中", "F": "发", "P": "白"}
_FLOWER_ZH = "春夏秋冬梅兰竹菊"
TILE_SHORT_ZH: dict[str, str] = {
    **{f"{r}{s}": f"{r}{_SUIT_ZH[i]}" for i, s in enumerate("mps") for r in range(1, 10)},
    **_HONOUR_ZH,
    **{f"f{i + 1}": ch for i, ch in enumerate(_FLOWER_ZH)},
}


class UnknownLanguage(ValueError):
    """A language other than zh/en."""


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise UnknownLanguage(f"unknown language {lang!r}; choose zh or en")
    return lang


def strings(lang: str = "zh") -> dict[str, str]:
    """The whole string table of one language (e.g. to ship to a web client as JSON)."""
    index = LANGS.index(check_lang(lang))
    return {key: pair[index] for key, pair in STRINGS.items()}


def text(key: str, lang: str = "zh", /, **fields: object) -> str:
    """The string ``key`` in ``lang`` with ``fields`` filled in."""
    zh, en = STRINGS[key]
    template = zh if lang == "zh" else en
    return template.format(**fields) if fields else template


def tile_label(face: str | None, lang: str = "zh") -> str:
    """A short label for one tile face (``None``, a hidden tile, gives '?')."""
    if face is None:
        return "?"
    if lang == "zh":
        return TILE_SHORT_ZH.get(face, face)
    return face


def item_name(name: str, lang: str = "zh") -> str:
    """A scoring item's name as the scorer gives it (Chinese), translated for ``en``."""
    if lang == "zh":
        return name
    return ITEM_NAMES_EN.get(name, name)


def possessive(name: str, lang: str = "zh") -> str:
    """Whose: 下家的 / Right's, and "your" for the player's own seat.

    >>> possessive("You", "en"), possessive("Left", "en"), possessive("上家", "zh")
    ('your', "Left's", '上家的')
    """
    if lang == "zh":
        return f"{name}的"
    if name == STRINGS["seat.self"][1]:
        return "your"
    return f"{name}'s"


def count_of(n: int, singular: str, plural: str, lang: str = "zh") -> str:
    """``n`` things with the English noun in the right number ('1 time', '2 times').

    >>> count_of(1, "time", "times", "en"), count_of(2, "time", "times", "en")
    ('1 time', '2 times')
    """
    if lang == "zh":
        return str(n)
    return f"{n} {singular if n == 1 else plural}"


def times(n: int, lang: str = "zh") -> str:
    """How many times: '2 次' / '2 times', '1 time'."""
    return f"{n} 次" if lang == "zh" else count_of(n, "time", "times", lang)


def mid_sentence(name: str, lang: str = "zh") -> str:
    """A seat name inside an English sentence: 'you' for the player, other names as they are."""
    return "you" if lang != "zh" and name == STRINGS["seat.self"][1] else name


def pair_names(a: str, b: str, lang: str = "zh", *, start: bool = True) -> str:
    """Two seats together: 你与上家 / 'You and Left', 'Right and you' (mid-sentence 'you')."""
    if lang == "zh":
        return f"{a}与{b}"
    first = a if start else mid_sentence(a, lang)
    return f"{first} and {mid_sentence(b, lang)}"


def wind_name(letter: str | None, lang: str = "zh") -> str:
    if letter is None:
        return ""
    return text(f"wind.{letter}", lang)
