// The words of the client in Chinese (first) and English: t(key, fields), tile names,
// scoring item names. The language is remembered in localStorage.

import { isFlower } from "./faces.js";
import { ruleset } from "./rulesets.js";

const STRINGS = {
  // the page
  "app.title": ["百搭 · 浙江麻将", "baida · Zhejiang mahjong"],
  "nav.lobby": ["大厅", "Lobby"],
  "nav.me": ["我的牌局", "My hands"],
  "nav.lang_label": ["切换语言", "Switch language"],
  "nav.sound_on": ["声音：开", "Sound: on"],
  "nav.sound_off": ["声音：关", "Sound: off"],
  "nav.signout": ["退出登录", "Sign out"],
  "skip": ["跳到内容", "Skip to content"],
  "loading": ["加载中…", "Loading…"],
  "error.network": ["网络错误：{msg}", "Network error: {msg}"],
  "silver": ["银子", "silver"],
  "balance": ["银子 {n}", "{n} silver"],
  "guest": ["游客", "guest"],
  "close": ["关闭", "Close"],
  "cancel": ["取消", "Cancel"],
  "back": ["返回", "Back"],
  // signing in
  "signin.title": ["进入游戏大厅", "Enter the hall"],
  "signin.guest": ["以游客身份进入", "Play as a guest"],
  "signin.or": ["或者用账号登录", "or sign in"],
  "signin.name": ["用户名", "Name"],
  "signin.password": ["密码", "Password"],
  "signin.login": ["登录", "Sign in"],
  "signin.register": ["注册", "Register"],
  "signin.register_hint": ["游客注册后保留牌局记录，银子最多保留初始数额；请另取一个不像“游客”的名字。", "A guest who registers keeps their hands, and their silver up to the starting amount; choose a name of your own (not Guest…)."],
  "signin.as": ["你好，{name}", "Hello, {name}"],
  // the hall's refusals by their code (docs/protocol.md); {msg} is the server's English
  "err.guests_limited": ["这个网络地址一小时内创建的新账号已达上限，请登录或稍后再试。", "{msg}"],
  "err.accounts_limited": ["这个网络地址一小时内创建的新账号已达上限，请登录或稍后再试。", "{msg}"],
  "err.name_limited": ["这个用户名密码错误次数过多：请在以前登录过的浏览器上登录，或几分钟后再试。", "{msg}"],
  "err.address_limited": ["这个网络地址密码错误次数过多，请几分钟后再试。", "{msg}"],
  "err.signins_limited": ["这个网络地址登录次数过多，请几分钟后再试。", "{msg}"],
  "err.wrong_password": ["当前密码不对。", "{msg}"],
  "err.guest_no_password": ["游客没有密码，请先注册。", "{msg}"],
  "err.name_taken": ["这个名字已经有人用了。", "{msg}"],
  "err.name_lookalike": ["这个名字和另一位玩家的名字看起来太像了。", "{msg}"],
  "err.name_reserved": ["名字不能是保留词（机器人、游客、bot、guest、管理员等，加上数字也不行）。", "{msg}"],
  "err.name_invisible": ["名字里不能有看不见的字符或控制字符。", "{msg}"],
  "err.name_marks": ["名字里一个字上最多叠三个附加符号。", "{msg}"],
  "err.name_empty": ["名字不能为空。", "{msg}"],
  "err.name_length": ["名字需要 2 到 16 个字符。", "{msg}"],
  "err.name_invalid": ["名字只能包含字母、数字、“_”和“-”：{msg}", "{msg}"],
  "err.wrong_login": ["用户名或密码不对。", "{msg}"],
  "err.signin_first": ["请先登录（或以游客身份进入）。", "{msg}"],
  "err.suspended": ["这个账号已被停用。", "{msg}"],
  "err.no_hand": ["没有你打过的这一局（或这一局还没打完）。", "{msg}"],
  "err.no_table": ["没有这张牌桌（也许已经散了）。", "{msg}"],
  "err.no_account": ["没有这个账号。", "{msg}"],
  "err.name_not_allowed": ["这个名字里有大厅不允许的字词，换一个吧。", "{msg}"],
  "err.no_room": ["没有这个房间号的牌桌", "{msg}"],
  "err.room_codes_limited": ["房间号错得太多了，请几分钟后再试。", "{msg}"],
  "err.host_limit": ["你同时开的牌桌已经到上限了。", "{msg}"],
  "err.stopping": ["这台服务器正在停机，请稍后再试。", "{msg}"],
  "err.table_elsewhere": ["新牌桌到了另一台服务器上：请从大厅进入。", "{msg}"],
  "err.busy": ["大厅正忙，请稍后再试。", "{msg}"],
  "err.workers_limited": ["这个网络地址一分钟内的听牌提示、核对和复盘太多了，请稍等片刻。", "{msg}"],
  "err.not_allowed": ["这只供大厅的管理员读取。", "{msg}"],
  "err.internal": ["大厅出了点问题，请稍后再试。", "{msg}"],
  // a table's refusals: by the case (reason) where one code covers several, else by the code
  "refused.seat_taken": ["这个座位已经有人了。", "{msg}"],
  "refused.seated_already": ["你已经坐在这张桌上了。", "{msg}"],
  "refused.playing": ["牌局进行中，不能入座。", "{msg}"],
  "refused.no_seat": ["你在这张桌上没有座位。", "{msg}"],
  "refused.left_match": ["你已经离开了这场牌局。", "{msg}"],
  "refused.escape_to_leave": ["牌局中离开就是逃跑。", "{msg}"],
  "refused.leave_not_stored": ["暂时记不下你的离开：座位还在，请再试一次。", "{msg}"],
  "refused.nothing_to_ready": ["现在没有要准备的。", "{msg}"],
  "refused.host_starts": ["只有房主能在开局前开始。", "{msg}"],
  "refused.seats_empty": ["要坐满四个人才能开始。", "{msg}"],
  "refused.not_ready": ["每位玩家都准备好才能开始。", "{msg}"],
  "refused.bots_before_match": ["开局前由已入座的玩家补机器人。", "{msg}"],
  "refused.spectator_chat": ["观战时只能看聊天。", "{msg}"],
  "refused.chat_too_fast": ["聊天发得太快了，请稍等。", "{msg}"],
  "refused.report_no_one": ["这个座位上没有玩家可以举报。", "{msg}"],
  "refused.report_self": ["不能举报自己。", "{msg}"],
  "refused.report_again": ["你刚举报过这位玩家，管理员已经收到。", "{msg}"],
  "refused.report_many": ["你这一小时已经举报了 10 次，管理员都已收到。", "{msg}"],
  "refused.rate_limited": ["发得太快了，请稍等。", "{msg}"],
  "refused.stale": ["这一步已经过去了（时间到或已有人先动）。", "{msg}"],
  "refused.no_prompt": ["现在没有轮到你决定。", "{msg}"],
  "refused.not_offered": ["现在不能这样做。", "{msg}"],
  // the player's password
  "name.title": ["名字", "Your name"],
  "name.new": ["新名字（2 到 16 个字符）", "New name (2 to 16 characters)"],
  "name.change": ["改名", "Rename"],
  "name.done": ["你现在叫 {name}。", "You are now {name}."],
  "pw.title": ["修改密码", "Change your password"],
  "pw.current": ["当前密码", "Current password"],
  "pw.new": ["新密码（至少 8 个字符）", "New password (8 characters or more)"],
  "pw.change": ["修改", "Change"],
  "pw.done": ["密码已修改，其他设备已退出登录。", "Password changed; your other devices are signed out."],
  // lobby
  "lobby.quick": ["快速开始：与三个机器人对局", "Quick start: play three bots"],
  "lobby.quick_jiaxing": ["嘉兴台头和", "Jiaxing"],
  "lobby.quick_wenling": ["温岭麻将", "Wenling"],
  "lobby.quick_hint": ["四局积分赛，不花银子。", "Four hands for points; no silver at stake."],
  "lobby.room": ["输入房间号加入私人牌桌", "Join a private table by its room code"],
  "lobby.room_code": ["房间号", "Room code"],
  "lobby.join": ["加入", "Join"],
  "lobby.tables": ["牌桌", "Tables"],
  "lobby.online": ["在线 {n} 人", "{n} online"],
  "lobby.none": ["暂时没有公开牌桌。", "No public tables yet."],
  "lobby.sit": ["入座", "Sit down"],
  "lobby.watch": ["观战", "Watch"],
  "lobby.open": ["进入", "Open"],
  "lobby.create": ["创建牌桌", "Create a table"],
  "lobby.create_go": ["创建", "Create"],
  "lobby.seats": ["{n}/4 人", "{n}/4 seated"],
  "lobby.refresh": ["刷新", "Refresh"],
  "lobby.filter": ["按玩法筛选牌桌", "Filter the tables by ruleset"],
  "lobby.filter_all": ["全部", "All"],
  "lobby.filter_free": ["只看有空位的", "Only with a free seat"],
  "lobby.back": ["你的牌桌", "Your table"],
  "lobby.back_hint": ["你在这里还有座位，托管正在替你打。", "You still have a seat here; auto-play is playing it for you."],
  "lobby.back_hint_here": ["你在这里有座位。", "You have a seat here."],
  "lobby.back_go": ["回到牌桌", "Return to your table"],
  "lobby.empty_group": ["{n} 张空桌", "{n} empty tables"],
  "lobby.empty_group_one": ["{n} 张空桌", "{n} empty table"],
  "lobby.sit_first": ["坐第一张空桌", "Sit at the first free table"],
  "lobby.joining": ["正在加入房间…", "Joining the room…"],
  "lobby.none_shown": ["没有符合条件的牌桌。", "No table matches."],
  "form.ruleset": ["玩法", "Rules"],
  "form.allow_chi": ["可以吃", "Chi allowed"],
  "form.discard_win": ["抓铳 (可和别人打出的牌)", "Discard wins (抓铳)"],
  "form.stakes": ["计分", "Stakes"],
  "form.points": ["积分", "points"],
  "form.silver": ["银子", "silver"],
  "form.base": ["底分", "Base"],
  "form.hands": ["局数", "Hands"],
  "form.private": ["私人牌桌 (凭房间号加入)", "Private (join by room code)"],
  "form.fee": ["台费 (每人每局)", "Fee (each, per hand)"],
  // badges
  "badge.jiaxing": ["嘉兴", "Jiaxing"],
  "badge.wenling": ["温岭", "Wenling"],
  "badge.chi": ["可吃", "chi"],
  "badge.no_chi": ["不吃", "no chi"],
  "badge.self_draw": ["硬自摸", "self-draw only"],
  "badge.discard_win": ["抓铳", "discard wins"],
  "badge.points": ["积分", "points"],
  "badge.silver": ["银子", "silver"],
  "badge.base": ["底 {n}", "base {n}"],
  "badge.hands": ["{n}局", "{n} hands"],
  "badge.hands_one": ["{n}局", "{n} hand"],
  "badge.rounds": ["{n}圈", "{n} rounds"],
  "badge.rounds_one": ["{n}圈", "{n} round"],
  "badge.private": ["私人", "private"],
  "badge.uniform_window": ["等时窗口", "even claim windows"],
  "status.waiting": ["等待中", "waiting"],
  "status.playing": ["对局中", "playing"],
  "status.between": ["局间", "between hands"],
  "status.closed": ["已关闭", "closed"],
  // rulesets and the table
  "ruleset.jiaxing": ["嘉兴台头和", "Jiaxing Taitouhe"],
  "ruleset.wenling": ["温岭麻将", "Wenling Mahjong"],
  "table.name": ["{ruleset} · {n}号桌", "{ruleset} · table {n}"],
  "table.room": ["房间号 {code}", "Room {code}"],
  "table.hand_of": ["第{n}/{total}局", "Hand {n}/{total}"],
  "table.hand_no": ["第{n}局", "Hand {n}"],
  "table.round_wind": ["{wind}风圈", "{wind} round"],
  "table.wall": ["余牌 {n}", "Wall {n}"],
  "table.indicator": ["翻牌", "Indicator"],
  "wild.jiaxing": ["百搭", "wild"],
  "wild.wenling": ["得", "wild"],
  "table.specials": ["花牌", "Specials"],
  "table.carry": ["黄番 {n}", "Carry {n}"],
  "table.no_chi": ["不可吃", "No chi"],
  "table.sheng": ["生牌阶段：打出生张点和要包三家", "Live-tile phase: dealing into a win with a new tile pays for all"],
  "table.commitment": ["洗牌承诺", "Shuffle commitment"],
  "table.spectating": ["观战中", "Watching"],
  "table.waiting_title": ["等待开局", "Waiting for the match"],
  "table.take_seat": ["坐这里", "Sit here"],
  "table.add_bots": ["空位补机器人", "Fill with bots"],
  "table.ready": ["准备", "Ready"],
  "table.unready": ["取消准备", "Not ready"],
  "table.leave": ["离开", "Leave"],
  "table.leave_escape": ["离开对局 (逃跑)", "Leave the match (escape)"],
  "table.leave_keep": ["回大厅 (保留座位，托管代打)", "Back to the lobby (keep my seat; auto-play)"],
  "table.leave_note": ["回大厅后座位保留到本场结束，由托管代打；在大厅点「回到牌桌」就能接着打。", "Your seat is kept until the match ends and auto-play plays it meanwhile; \"Return to your table\" in the lobby brings you back."],
  "table.leave_note_points": ["只有「逃跑」才会永久放弃座位。", "Only escaping gives the seat up for good."],
  "table.leave_note_silver": ["只有「逃跑」才会永久放弃座位：由机器人代打，你要付本局和逃跑罚金 {penalty} 银子。", "Only escaping gives the seat up for good: a bot plays on, and you pay this hand and the {penalty} silver penalty."],
  "table.waiting_for": ["还差 {n} 位玩家", "Waiting for {n} players"],
  "table.waiting_for_one": ["还差 {n} 位玩家", "Waiting for {n} player"],
  "table.waiting_ready": ["等待 {n} 位玩家准备", "Waiting for {n} players to get ready"],
  "table.waiting_ready_one": ["等待 {n} 位玩家准备", "Waiting for {n} player to get ready"],
  "table.bots_and_start": ["空位补机器人，开始", "Fill the empty seats with bots and start"],
  "table.invite": ["邀请好友", "Invite friends"],
  "table.invite_hint": ["把链接发给好友，打开就能入座。", "Send this link to a friend: opening it seats them at this table."],
  "table.copy_link": ["复制邀请链接", "Copy the invite link"],
  "table.escape_confirm": ["对局中离开算逃跑：由机器人代打，银子桌要付本局和逃跑罚金。确定离开？",
    "Leaving during a match is an escape: a bot plays on, and at a silver table you pay this hand and the penalty. Leave?"],
  "table.empty_seat": ["空位", "empty"],
  "table.bot": ["机器人", "bot"],
  "table.ready_mark": ["已准备", "ready"],
  "table.offline": ["离线", "offline"],
  "table.tuoguan": ["托管", "auto"],
  "table.tuoguan_mine": ["托管中：机器人正在替你打 ({why})", "Auto-play: a bot is playing for you ({why})"],
  "table.why.timeout": ["超时", "time ran out"],
  "table.why.offline": ["掉线", "you were offline"],
  "table.take_back": ["我来打 (取回座位)", "Take my seat back"],
  "table.reconnecting": ["连接断开，正在重新连接…", "Connection lost; reconnecting…"],
  "table.replaced": ["这个座位已在另一个窗口打开。", "This seat was opened in another window."],
  "table.reopen": ["在这里继续", "Continue here"],
  "table.closed": ["牌桌已关闭：{msg}", "The table closed: {msg}"],
  "table.unattended": ["这张牌桌十分钟没有人坐，已关闭。", "Nobody sat at this table for ten minutes, so it closed."],
  "table.storage_down": ["大厅暂时无法保存这张牌桌的出牌：牌桌暂停，计时也停了，恢复后接着打。", "The hall cannot save this table's moves just now: the table waits, every clock stopped, and goes on when it can."],
  "table.abandoned": ["你在这张牌桌的对局已结束：十分钟没有人在桌，打完的每一局都已结算。", "Your match at this table ended: nobody was at the table for ten minutes. Every hand played is settled."],
  "table.broken": ["大厅无法记录这一手的结果，牌桌已关闭：这一手作废，没有人付银子。", "The hall could not store this hand's result, so the table closed: the hand is void and nobody paid for it."],
  "table.no_table": ["没有这张牌桌。", "There is no such table."],
  "table.moving": ["牌桌正在转移或重启，正在重新连接…", "The table is moving or restarting; reconnecting…"],
  "table.finding": ["正在寻找这张牌桌…", "Looking for this table…"],
  "table.title_move": ["● 轮到你了", "● Your move"],
  "table.unavailable": ["牌桌暂时无法连接，请稍后再试。", "The table cannot be reached just now; try again in a minute."],
  "table.in_hand": ["手牌 {n}", "{n} in hand"],
  "table.melds": ["副露", "Melds"],
  "table.flowers": ["花", "Flowers"],
  "table.discards": ["弃牌", "Discards"],
  "table.from": ["来自{who}", "from {who}"],
  "table.dealer": ["庄", "dealer"],
  "table.gave_up": ["放弃", "gave up"],
  "table.chengbao": ["承包·{who}", "liable with {who}"],
  "table.chengbao_mark": ["承包", "承包 (liable)"],
  "table.cb_explain": ["三摊：一家吃碰杠同一家的牌满三次，两家互为承包方，和牌时按承包规则多付份数。", "三摊 (three claims): one player claimed another's discards three times; the two are now liable for each other (承包) and pay more shares when someone wins."],
  "table.info": ["牌桌信息", "Table information"],
  "table.log_short": ["记录", "Log"],
  "table.copy": ["复制", "Copy"],
  "table.copied": ["已复制", "Copied"],
  "table.commitment_note": ["开局前公布的洗牌承诺；结算时公开种子，可以在结算里验证。", "Published before the deal; the seed revealed at the settlement is checked against it there."],
  "table.actions": ["操作", "Actions"],
  "table.your_turn": ["轮到你出牌", "Your turn: discard a tile"],
  "table.your_turn_hint": ["点一张牌打出，或用 ←/→ 选牌、回车打出", "Click a tile, or pick one with ←/→ and press Enter"],
  "table.turn_of": ["{who}出牌中", "{who} to play"],
  "table.claim_on": ["{who}打出", "{who} discarded"],
  "table.rob_on": ["{who}补杠", "{who} adds a kong of"],
  "table.win_offer_self": ["★ 自摸！可以和牌 ★", "★ Self-draw! You can win ★"],
  "table.win_offer_lazi": ["★ 腊子！可以和牌 ★", "★ A lazi! You can win ★"],
  "table.win_offer_claim": ["★ 可以和这张牌 ★", "★ You can win on this tile ★"],
  "table.win_offer_rob": ["★ 可以抢杠和 ★", "★ You can win by robbing the kong ★"],
  "table.seconds": ["{n}秒", "{n}s"],
  "table.bank": ["备用 {n}秒", "bank {n}s"],
  "table.tenpai": ["听牌", "Waiting on"],
  "table.tenpai_live": ["剩{n}张", "{n} left"],
  "table.tenpai_wild": ["摸到{wild}也和", "a {wild} wins too"],
  "table.no_win_wild": ["你打过得，本局不能和", "You discarded a wild: no win this hand"],
  "table.tenpai_after": ["打出后听", "discard to wait on"],
  "table.santan_warn": ["注意：{x}已吃碰杠{y}的牌 {n} 次，再一次即成三摊 ({pair}互为承包方)",
    "Careful: {x} claimed {ys} discards {n} times; one more makes {pair} liable for each other (三摊)"],
  "table.log": ["牌局记录", "Events"],
  "table.chat": ["聊天", "Chat"],
  "table.chat_send": ["发送", "Send"],
  "table.chat_placeholder": ["说点什么 (最多80字)", "Say something (80 characters at most)"],
  "table.chat_hint": ["说点什么…", "Say something…"],  // the placeholder: the panel is narrow
  "table.chat_spectator": ["观战者只能看聊天。", "Spectators read the chat."],
  "table.mute": ["屏蔽或举报：", "Mute or report:"],
  "table.mute_title": ["不看 {name} 的聊天（在这个浏览器里记住）", "Hide {name}'s chat (remembered in this browser)"],
  "table.unmute_title": ["再看 {name} 的聊天", "Show {name}'s chat again"],
  "table.report": ["举报", "Report"],
  "table.report_title": ["向管理员举报 {name}（附上 ta 在这桌说的话）", "Report {name} to the hall's operator (with what they said at this table)"],
  "table.report_confirm": ["向管理员举报 {name}？ta 在这桌最近说的话会一起送去；别人不会知道。", "Report {name} to the hall's operator? Their last words at this table go with it; nobody else is told."],
  "table.reported": ["已举报 {name}，管理员会看到。", "{name} is reported; the operator will see it."],
  "table.keys": ["键盘：←/→ 选牌 · 回车 打出 · W 和 · P 碰 · C 吃 · K 杠 (按两下) · Esc 关闭对话框",
    "Keys: ←/→ choose · Enter discard · W win · P pon · C chi · K kong (press twice) · Esc close dialogs"],
  "table.press_again": ["再按一次 {key} 确认{what}", "Press {key} again to {what}"],
  "table.cb_title": ["本盘承包情况一览", "承包 (liability after a 三摊) this hand"],
  "table.cb_pair": ["{pair}互为承包", "{pair}: liable for each other"],
  "table.cb_choosing": ["选择中…", "choosing…"],
  "table.next_hand": ["下一局已开始", "The next hand has started"],
  "table.match_over": ["比赛结束", "Match over"],
  "table.play_again": ["再来一场", "Play again"],
  "table.to_lobby": ["回大厅", "Back to the lobby"],
  "table.ready_next": ["继续 (准备下一局)", "Continue (ready for the next hand)"],
  "table.dismiss": ["关闭结算", "Close the settlement"],
  "table.refused": ["未执行：{msg}", "Not done: {msg}"],
  "table.timeout": ["时间到", "Time is up"],
  // seats relative to the player
  "seat.self": ["你", "You"],
  "seat.next": ["下家", "Right"],
  "seat.across": ["对家", "Across"],
  "seat.prev": ["上家", "Left"],
  "seat.n": ["{n}号位", "Seat {n}"],
  "wind.E": ["东", "East"],
  "wind.S": ["南", "South"],
  "wind.W": ["西", "West"],
  "wind.N": ["北", "North"],
  // actions
  "act.win": ["和", "Win"],
  "act.pon": ["碰", "Pon"],
  "act.chi": ["吃", "Chi"],
  "act.kong": ["杠", "Kong"],
  "act.mkong": ["明杠", "Kong"],
  "act.akong": ["暗杠", "Concealed kong"],
  "act.bukong": ["补杠", "Added kong"],
  "act.lazi": ["腊子和", "Lazi"],
  "act.pass": ["过", "Pass"],
  "act.continue": ["坚持", "Continue"],
  "act.give_up": ["放弃", "Give up"],
  "act.discard": ["打出", "Discard"],
  "act.choose_chi": ["选择怎么吃", "Choose how to chi"],
  "act.choose_kong": ["选择哪一杠", "Choose a kong"],
  "guard.title": ["你可以和牌！", "You can win!"],
  "guard.discard": ["不和，打出 {tile}", "Discard {tile}, no win"],
  "guard.pass": ["不和，过", "Pass, no win"],
  "guard.claim": ["不和，{what}", "{what}, no win"],
  "guard.text_touch": ["点「{win}」和牌；确定不和请点下面的按钮。", "Tap {win} to win; to give the win up, tap the button below."],
  "guard.text": ["按 {key} 或点「{win}」和牌。确定不和请按 X 或点下面的按钮；其他键取消。",
    "Press {key} or click {win} to win. To give the win up press X or the button below; any other key cancels."],
  "santan.title": ["三摊！", "Three claims (三摊)!"],
  "santan.text": ["{pair}互为承包方。你要坚持 (继续打) 还是放弃？", "{pair} are now liable for each other. Continue playing, or give up?"],
  "santan.explain": ["三摊：一家吃碰杠同一家的牌满三次，这两家就互为承包方：有人自摸时，承包方要多付。", "三摊 (three claims): a player who claimed the same player's discards three times makes the two liable for each other (承包): when someone wins, they pay more."],
  "santan.continue_hint": ["坚持：继续正常打，有人和牌时按承包规则多付。", "Continue: play on; if someone wins you may pay more under 承包."],
  "santan.give_up_no_win": ["放弃：以后只摸打，不付分，也不能和。", "Give up: from now on only draw and discard, pay nothing, and never win."],
  "santan.give_up_can_win": ["放弃：以后只摸打，不付分，仍可自摸和。", "Give up: from now on only draw and discard, pay nothing; a self-draw may still win."],
  // events (the log and the live region)
  "ev.hand_start": ["第{n}局开始：庄家{dealer}，骰子 {dice}", "Hand {n}: dealer {dealer}, dice {dice}"],
  "ev.carry": ["本局累计番：{names}", "Carried fans this hand: {names}"],
  "ev.deal": ["{who} 起牌 {n} 张", "{who}: {n} tiles dealt"],
  "ev.draw": ["{who} 摸 {tile}", "{who} draws {tile}"],
  "ev.draw_self": ["你摸到 {tile}", "You drew {tile}"],
  "ev.discard": ["{who} 打 {tile}", "{who}: discard {tile}"],
  "ev.chi": ["{who} 吃 {tile}", "{who}: chi {tile}"],
  "ev.pon": ["{who} 碰 {tile}", "{who}: pon {tile}"],
  "ev.mkong": ["{who} 明杠 {tile}", "{who}: kong {tile}"],
  "ev.akong": ["{who} 暗杠", "{who}: concealed kong"],
  "ev.bukong": ["{who} 补杠 {tile}", "{who}: added kong {tile}"],
  "ev.kong_robbed": ["{by} 抢杠 {tile}", "{by} robbed the kong of {tile}"],
  "ev.flower": ["{who} 补花 {tile}", "{who}: exposes {tile}"],
  "ev.santan": ["三摊：{pair}互为承包方", "三摊: {pair} are liable for each other"],
  "ev.santan_choice": ["{who} 选择{choice}", "{who}: {choice}"],
  "ev.sheng": ["生牌阶段开始 (余牌 {n})：打出生张点和要包三家！", "Live-tile phase (wall {n}): dealing into a win with a new tile pays for all!"],
  "ev.win": ["{who} 和了！{how} {tile}", "{who} won {how}: {tile}"],
  "ev.draw_game": ["流局", "The hand is drawn"],
  "ev.your_turn": ["轮到你了", "Your turn"],
  "ev.claim_prompt": ["你可以{acts}", "You may {acts}"],
  "ev.mode_auto": ["{who} 托管", "{who}: auto-play"],
  "ev.mode_player": ["{who} 回来了", "{who} is back"],
  "ev.mode_bot": ["{who} 离开，机器人接手", "{who} left; a bot plays on"],
  // settlement
  "st.title": ["结算 · 第{n}局", "Settlement · hand {n}"],
  "st.title_plain": ["结算", "Settlement"],
  "st.draw.jiaxing": ["流局 (荒庄)：无人和牌，不计分", "Drawn: the wall ran out, no payments"],
  "st.draw.wenling": ["黄牌：无人和牌，不计分", "Drawn (黄牌): no payments"],
  "st.winner": ["{who} 和了 · {how} {tile}", "{who} won {how}: {tile}"],
  "st.from": ["放铳：{who}", "dealt in by {who}"],
  "st.liable": ["包三家：{who}", "pays for all (包三家): {who}"],
  "win_by.self_draw": ["自摸", "by self-draw"],
  "win_by.discard": ["抓铳", "on a discard"],
  "win_by.rob_kong": ["抢杠", "by robbing a kong"],
  "win_by.lazi": ["腊子和", "with a lazi"],
  "st.tai": ["台", "Tai"],
  "st.fan": ["番", "Fan"],
  "st.base_items": ["和 (基础牌点)", "Base points (和)"],
  "st.unit.tai": ["台", " tai"],
  "st.unit.fan": ["番", " fan"],
  "st.unit.he": ["和", ""],
  "st.total": ["合计", "total"],
  "st.formula_tai": ["底 {base} × {tai}台 × 2^{fan}番 = {points}", "base {base} × {tai} tai × 2^{fan} fan = {points}"],
  "st.formula_points": ["({base_points} + 20) × 2^{fan}番 = {raw} → {points}", "({base_points} + 20) × 2^{fan} fan = {raw} → {points}"],
  "st.rounded": ["(进到十位，最多 {cap})", "(rounded up to tens, at most {cap})"],
  "st.limit": ["满贯 {points}", "Limit hand: {points}"],
  "st.pays_each": ["其他三家各付 {n}", "each other player pays {n}"],
  "st.wilds": ["{wild}当作：", "The wild stood for: "],
  "st.santan": ["三摊 ({pairs})，每份 {share}：", "Three claims (三摊: {pairs}), one share = {share}: "],
  "st.shares": ["{who} 付 {n} 份", "{who} paid {n} shares"],
  "st.shares_one": ["{who} 付 {n} 份", "{who} paid {n} share"],
  "st.santan_explain": ["承包 (三摊之后)：承包方按份数多付，放弃的人不付。", "承包 (after a 三摊): the liable players pay more shares; a player who gave up pays nothing."],
  "st.next_in": ["下一局 {n} 秒后开始", "The next hand starts in {n}s"],
  "st.limit_item": ["满贯", "limit"],
  "st.limit_title": ["满贯", "Limit hand"],
  "st.pw_title": ["谁付给谁", "Who paid whom"],
  "st.pw_explain": ["温岭：每位闲家付给和家 和家牌点 ÷ 10；两位闲家之间，牌点低的付给高的 差额 ÷ 10 (不足十的零头不付)。", "Wenling: every other player pays the winner the winner's points ÷ 10; between two other players, the lower pays the higher the difference ÷ 10 (odd units are not paid)."],
  "st.pw_who": ["付 → 收", "Payer → payee"],
  "st.pw_amount": ["数额", "Amount"],
  "st.pw_how": ["怎么算", "How"],
  "st.pw_to_winner": ["付和家", "to the winner"],
  "st.pw_difference": ["闲家之间", "between players"],
  "st.pw_for": ["包三家，替{who}付", "包三家: pays for {who}"],
  "st.pw_share": ["{who}共收 {n}", "{who} received {n} in all"],
  "callout.self_draw": ["自摸", "Self-draw!"],
  "callout.discard": ["和", "Win!"],
  "callout.rob_kong": ["抢杠", "Robbed!"],
  "callout.lazi": ["腊子", "Lazi!"],
  "callout.won": ["{who} 和了 · {how}", "{who} won {how}"],
  "st.shares_gave_up": ["{who} 放弃，不付", "{who} gave up: paid nothing"],
  "st.illegal": ["不成和：{reason}", "Not a legal win: {reason}"],
  "st.player": ["玩家", "Player"],
  "st.nonwinner": ["闲家计分项", "Non-winners' items"],
  "st.liable_zero": ["被包：牌点记 0", "liable: counts 0"],
  "st.points": ["牌点", "Points"],
  "st.payment": ["本局得失", "This hand"],
  "st.silver": ["银子变化", "Silver"],
  "st.silver_detail": ["应付 {owed}，实付 {paid}，台费 {fee}", "owed {owed}, paid {paid}, fee {fee}"],
  "st.balance": ["余额 {n}", "balance {n}"],
  "st.totals": ["总分", "Match total"],
  "st.carry_after": ["黄番池 → {n}", "Carry pool → {n}"],
  "st.hands": ["各家手牌", "All hands"],
  "st.standings": ["最终排名", "Final standings"],
  "st.rank": ["名次", "Rank"],
  "st.seed": ["种子 (公开后可验证)", "Seed (revealed, checkable)"],
  "st.verify": ["验证这局", "Verify this hand"],
  "st.verify_ok": ["✓ 验证通过：种子与开局时的承诺一致，按记录重放得到相同结算。", "✓ Verified: the seed matches the commitment shown at the deal, and the record replays to the same settlement."],
  "st.verify_bad": ["✗ 验证失败：{problems}", "✗ Verification failed: {problems}"],
  "st.verify_local_ok": ["✓ 本页算出的 SHA-256(种子) 就是开局时公布的承诺。", "✓ SHA-256(seed), computed in this page, is the commitment shown at the deal."],
  "st.verify_local_bad": ["✗ 本页算出的 SHA-256(种子) 不是开局时公布的承诺", "✗ SHA-256(seed), computed in this page, is not the commitment shown at the deal"],
  "st.verify_record_other": ["大厅记录里的种子或承诺与本页所见不同", "the hall's record holds another seed or commitment than this page saw"],
  "st.replay": ["回放与复盘", "Replay and review"],
  "st.replay_short": ["回放", "Replay"],
  "st.download": ["下载记录", "Download the record"],
  "st.waiting_store": ["结算保存中…", "Saving the settlement…"],
  "st.collapsed_note": ["下一局轮到你了：结算已收起，可以再打开。", "Your move in the next hand: the settlement is folded away; open it again any time."],
  "st.reopen": ["查看结算", "Show the settlement"],
  // my hands, ledger
  "me.title": ["我的牌局", "My hands"],
  "me.balance": ["银子余额", "Silver balance"],
  "me.ledger": ["银子明细", "Silver history"],
  "me.hands": ["打过的牌局", "Hands played"],
  "me.no_hands": ["还没有打完的牌局。", "No finished hand yet."],
  "me.no_ledger": ["还没有银子往来。", "No silver movements yet."],
  "me.more": ["更多", "More"],
  "me.when": ["时间", "When"],
  "me.kind": ["项目", "What"],
  "me.amount": ["数额", "Amount"],
  "me.hand": ["牌局", "Hand"],
  "me.result": ["结果", "Result"],
  "me.won": ["{who}和", "{who} won"],
  "me.draw": ["流局", "drawn"],
  "me.record": ["战绩", "Record"],
  "me.no_record": ["打完一局后，这里会显示你的战绩。", "Your record shows here once you have finished a hand."],
  "stats.hands": ["局数", "Hands"],
  "stats.wins": ["和牌", "Wins"],
  "stats.self_drawn": ["自摸", "self-drawn"],
  "stats.dealt_in": ["放铳", "Dealt in"],
  "stats.drawn": ["流局", "Drawn"],
  "stats.points": ["得失合计", "Net points"],
  "stats.per_hand": ["每局 {n}", "{n} a hand"],
  "stats.best": ["最佳一局", "Best hand"],
  "stats.none": ["—", "—"],
  "ledger.grant": ["初始银子", "starting silver"],
  "ledger.hand": ["牌局输赢", "hand"],
  "ledger.fee": ["台费", "table fee"],
  "ledger.penalty": ["逃跑罚金", "escape penalty"],
  "ledger.compensation": ["逃跑补偿", "escape compensation"],
  "ledger.reclaim": ["注册时收回超出初始额的游客银子", "guest silver above the start, kept back at registration"],
  // replay
  "rp.title": ["回放 · 第{n}局", "Replay · hand {n}"],
  "rp.step": ["第 {i}/{n} 步", "Step {i}/{n}"],
  "rp.first": ["到开头", "To the start"],
  "rp.prev": ["上一步", "Previous step"],
  "rp.next": ["下一步", "Next step"],
  "rp.last": ["到结尾", "To the end"],
  "rp.play": ["自动播放", "Play"],
  "rp.pause": ["暂停", "Pause"],
  "rp.keys": ["←/→ 单步 · Home/End 开头/结尾 · 空格 播放/暂停", "←/→ step · Home/End start/end · Space play/pause"],
  "rp.mismatch": ["注意：重放的结算与记录不一致。", "Note: the replay does not reproduce the recorded settlement."],
  // the bot's review beside a replay
  "rv.title": ["机器人复盘", "The bot's review"],
  "rv.loading": ["机器人正在复盘…", "The bot is reviewing the hand…"],
  "rv.summary": ["你做了 {n} 个选择，{best} 个是机器人的首选；按它的估计，其余的共少得 {cost} 分。", "You made {n} choices, {best} of them the bot's first choice; by its estimate the others cost {cost} points in all."],
  "rv.none": ["这一局你没有需要选择的时候。", "You had no choice to make in this hand."],
  "rv.no_choice": ["这一步你没有选择。", "No choice of yours at this step."],
  "rv.chose": ["你选了{action}（估值 {value}）", "You chose {action} (worth {value})"],
  "rv.best": ["✓ 机器人的首选", "✓ the bot's first choice"],
  "rv.other": ["· 机器人首选{action}（{value}），少得 {cost}", "· the bot prefers {action} ({value}), {cost} more"],
  "rv.worst": ["代价最大的选择：", "The costliest choices:"],
  "rv.jump": ["第 {i} 步：{action}（−{cost}）", "Step {i}: {action} (−{cost})"],
  "rv.note": ["估值是 {bot} 机器人对此后得分的期望，只用你当时看得到的牌；它是参考，不是定论。", "A value is the {bot} bot's expected points from then on, from only what you could see then: a guide, not a verdict."],
};

// English names of the scorer's items (docs/scoring-api.md gives them in Chinese).
const ITEM_EN = {
  红中刻: "Red dragon triplet", 发财刻: "Green dragon triplet", 白板刻: "White dragon triplet",
  门风: "Seat wind triplet", 风圈: "Round wind triplet", 无百搭: "No wild", 对对和: "All triplets",
  混一色: "Half flush", 清一色: "Full flush", 全老头: "All honours", 三百搭: "Three wilds",
  杠上开花: "Win on a kong replacement", 单吊: "Single wait", 黄番: "Carried fan",
  海底捞月: "Last tile", 天和: "Heavenly hand", 地和: "Earthly hand", 老头黄: "Honour wild",
  包子: "Dice double", 百搭连庄: "Same wild again", 对子: "Valued pair", 刻子: "Exposed triplet",
  暗刻: "Concealed triplet", 明杠: "Exposed kong", 暗杠: "Concealed kong", 翻白板: "Exposed White",
  翻红中: "Exposed Red", 翻发财: "Exposed Green", 嵌档: "Closed wait", 靠柄: "Edge wait",
  自摸: "Self-draw", 门风花牌: "Seat flower", 门风刻: "Seat wind triplet", 字牌刻: "Dragon triplet",
  旁和: "All sequences, two-sided wait", 无得: "No wild", "2张得": "Two wilds", 抢杠和: "Robbing a kong",
  自摸得: "Self-drawn wild", 四风会齐: "All four winds", "3张得": "Three wilds (limit)",
  "4张红花": "Four red flowers", "4张黑花": "Four black flowers", "4张白板": "Four Whites",
  "4张红中": "Four Reds", "4张发财": "Four Greens", 暗杠门风: "Concealed seat-wind kong",
  暗杠字牌: "Concealed dragon kong", 腊子: "Lazi",
};

const NUM_ZH = "一二三四五六七八九";
const SUIT_ZH = { m: "万", p: "筒", s: "条" };
const SUIT_EN = { m: "Characters", p: "Dots", s: "Bamboo" };
const HONOUR_ZH = { E: "东风", S: "南风", W: "西风", N: "北风", C: "红中", F: "发财", P: "白板" };
const HONOUR_EN = { E: "East wind", S: "South wind", W: "West wind", N: "North wind", C: "Red dragon", F: "Green dragon", P: "White dragon" };
const HONOUR_SHORT = { E: "东", S: "南", W: "西", N: "北", C: "中", F: "发", P: "白" };
const HONOUR_SHORT_EN = { E: "East", S: "South", W: "West", N: "North", C: "Red", F: "Green", P: "White" };
const FLOWER_ZH = "春夏秋冬梅兰竹菊";
const FLOWER_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum"];

const listeners = new Set();
let current = "zh";
try {
  const saved = localStorage.getItem("baida.lang");
  if (saved === "zh" || saved === "en") current = saved;
} catch { /* no storage: Chinese */ }

export function lang() {
  return current;
}

export function setLang(value) {
  if (value !== "zh" && value !== "en") return;
  current = value;
  try { localStorage.setItem("baida.lang", value); } catch { /* ignore */ }
  document.documentElement.lang = value === "zh" ? "zh-CN" : "en";
  for (const fn of listeners) fn(value);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The string ``key`` in the current language with ``{fields}`` filled in. */
export function t(key, fields = {}) {
  const pair = STRINGS[key];
  if (!pair) return key;
  const template = pair[current === "zh" ? 0 : 1];
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in fields ? String(fields[name]) : m));
}

/** A table's refusal in the page's language: its case (``reason``) or its code when known,
 * else the hall's own (English) words. */
export function refusalWords(refusal) {
  for (const key of [refusal.reason && `refused.${refusal.reason}`, `refused.${refusal.code}`]) {
    if (key && STRINGS[key]) return t(key, { msg: refusal.message });
  }
  return refusal.message;
}

/** A tile's full name: 五万, 东风, 春 / 5 Characters, East wind, Spring. */
export function tileName(face) {
  if (!face) return current === "zh" ? "暗牌" : "hidden tile";
  if (/^[1-9][mps]$/.test(face)) {
    return current === "zh" ? NUM_ZH[Number(face[0]) - 1] + SUIT_ZH[face[1]] : `${face[0]} ${SUIT_EN[face[1]]}`;
  }
  if (isFlower(face)) {
    const i = Number(face[1]) - 1;
    return current === "zh" ? FLOWER_ZH[i] : FLOWER_EN[i];
  }
  return (current === "zh" ? HONOUR_ZH : HONOUR_EN)[face] || face;
}

/** A short label: 5万, 中, 春 / 5m, Red, Spring (a suit tile keeps its notation in English; an
 * honour or a flower is named, "C" or "f1" telling a newcomer nothing). */
export function tileShort(face) {
  if (!face) return "?";
  if (current !== "zh") {
    if (isFlower(face)) return FLOWER_EN[Number(face[1]) - 1];
    return HONOUR_SHORT_EN[face] || face;
  }
  if (/^[1-9][mps]$/.test(face)) return face[0] + SUIT_ZH[face[1]];
  if (isFlower(face)) return FLOWER_ZH[Number(face[1]) - 1];
  return HONOUR_SHORT[face] || face;
}

/** Short labels of several tiles: 5万6万7万 / 5m 6m 7m. */
export function tilesShort(faces) {
  return faces.map(tileShort).join(current === "zh" ? "" : " ");
}

/** The wild's name at this table: 百搭 (Jiaxing) or 得 (Wenling); "wild" in English. */
export function wildWord(name) {
  return t(`wild.${ruleset(name).name}`);
}

/** A player's name as shown: the hall's guest names (游客4766) read "Guest 4766" in English. */
export function displayName(name) {
  const guest = /^游客(\d+)$/.exec(name || "");
  return guest && current !== "zh" ? `Guest ${guest[1]}` : name;
}

/** ``n`` with the singular or plural word: "1 hand", "2 hands" (Chinese has one form). */
export function counted(key, n, fields = {}) {
  return t(n === 1 && STRINGS[`${key}_one`] ? `${key}_one` : key, { ...fields, n });
}

/** A tile as a screen reader says it: 五万 (百搭). */
export function tileLabel(face, { wild = false, ruleset: rules } = {}) {
  const name = tileName(face);
  return wild ? `${name} (${wildWord(rules)})` : name;
}

export function itemName(name) {
  return current === "zh" ? name : ITEM_EN[name] || name;
}

export function windName(letter) {
  return letter ? t(`wind.${letter}`) : "";
}

/** A seat named from ``me``'s chair: 你 / 下家 / 对家 / 上家 (a spectator: 1号位...). */
export function seatName(seat, me) {
  if (seat === null || seat === undefined) return "";
  if (me === null || me === undefined) return t("seat.n", { n: seat + 1 });
  return t(["seat.self", "seat.next", "seat.across", "seat.prev"][(seat - me + 4) % 4]);
}

/** Whose, in English: "your" for the own seat, else the name with 's ("Left's"). */
export function possessive(seat, me) {
  if (me !== null && me !== undefined && seat === me) return current === "zh" ? t("seat.self") : "your";
  return `${seatName(seat, me)}'s`;
}

/** Two seats together: 你与上家 / You and Left; ``within``: inside a sentence (you and Left). */
export function pairNames(a, b, within = false) {
  if (current === "zh") return `${a}与${b}`;
  const low = (name) => (within && name === t("seat.self") ? name.toLowerCase() : name);
  return `${low(a)} and ${low(b)}`;
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}
