"""The game screen as lines of styled text, computed from the controller for a given size.

Theory of operation
-------------------
The whole screen is drawn here, line by line. So what fits where is decided in one place and
tested at exact sizes. Every line is cut or padded to the width.

The height is shared out in a fixed order of importance. The header, monsters, dice, market, the
player's choices and the footer are always shown. The game log takes what is left. The chat is in
the log, each line where it was said. It has no panel of its own, which would sit below the newest
moves.

From 120 columns on, the monsters and the dice take the whole width. Each monster gets a second
line when the height allows, with its tokens, its key fingerprint and every card by name; more
lines when its cards need them. Below, the market shows every effect in full beside the game log.

Below 120 columns, the market gives each effect one or two lines and a monster's cards are named
as far as they fit, with a count of the others. The card reader, opened with ``i``, shows one card
whole: the market's, then every monster's. It takes the log's place, or the market's when the
log has too little room.

Fragments may carry a mouse handler, so a click on a die, a market card or a choice works.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import OneStyleAndTextTuple, StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from kotp2p import rules
from kotp2p.net.wire import safe_text
from kotp2p.ui import keys as K
from kotp2p.ui.hands import hand_words
from kotp2p.ui.model import Controller, LogLine

Line = list[OneStyleAndTextTuple]
WIDE = 120
"""From this many columns, the game log and the chat in it get a column of their own."""


def width_of(line: Line) -> int:
    """Cells the line takes."""
    return sum(get_cwidth(f[1]) for f in line)


def cut(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` cells, ending with … when cut."""
    if get_cwidth(text) <= width:
        return text
    out, used = [], 0
    for ch in text:
        w = get_cwidth(ch)
        if used + w > width - 1:
            break
        out.append(ch)
        used += w
    return "".join(out).rstrip() + ("…" if width > 0 else "")


def fit_name(name: str, width: int) -> str:
    """A player's ``name`` in at most ``width`` cells.

    The name is whole if it fits. Else a note in brackets at its end is dropped: ``Bot 1 (greedy)``
    reads ``Bot 1``. Games before short bot names called bots that way. Else the name is cut.
    """
    if get_cwidth(name) <= width:
        return name
    if name.endswith(")") and " (" in name:
        base = name[: name.rindex(" (")].rstrip()
        if base and get_cwidth(base) <= width:
            return base
    return cut(name, width)


def column(text: str, width: int) -> str:
    """``text`` as a column ``width`` cells wide: cut with … or padded with spaces."""
    text = cut(text, width)
    return text + " " * (width - get_cwidth(text))


def names_in(names: list[str], width: int) -> str:
    """Card names, comma-separated, in at most ``width`` cells.

    Only whole names are shown. A count says how many more there are: ``Acid Attack +2``. With
    no room for one name it is the count alone: ``3 cards``, or ``+3`` in less room. The card
    reader shows them all.
    """
    for shown in range(len(names), 0, -1):
        rest = len(names) - shown
        text = ", ".join(names[:shown]) + (f" +{rest}" if rest else "")
        if get_cwidth(text) <= width:
            return text
    if not names:
        return ""
    count = f"{len(names)} card{'s' if len(names) > 1 else ''}"
    return count if get_cwidth(count) <= width else cut(f"+{len(names)}", width)


def pack_names(names: list[str], first: int, width: int) -> list[str]:
    """Card names, comma-separated, in lines: the first ``first`` cells wide, the others ``width``.

    A name is never split, unless it is longer than a whole line.
    """
    lines: list[str] = []
    cur, room = "", first
    for i, name in enumerate(names):
        piece = name + ("," if i < len(names) - 1 else "")
        cand = f"{cur} {piece}" if cur else piece
        if get_cwidth(cand) <= room:
            cur = cand
            continue
        lines.append(cur)  # Empty when not even one name fits the first line.
        cur, room = cut(piece, width), width
    return [*lines, cur] if cur else lines


def fit(line: Line, width: int) -> Line:
    """The line cut or padded to exactly ``width`` cells."""
    out: Line = []
    used = 0
    for frag in line:
        w = get_cwidth(frag[1])
        if used + w > width:
            text = cut(frag[1], width - used)
            out.append((frag[0], text, *frag[2:]))
            used += get_cwidth(text)
            break
        out.append(frag)
        used += w
    if used < width:
        out.append(("", " " * (width - used)))
    return out


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken at spaces."""
    lines: list[str] = []
    cur = ""
    for word in text.split():
        cand = f"{cur} {word}" if cur else word
        if get_cwidth(cand) <= width:
            cur = cand
        else:
            if cur:
                lines.append(cur)
            cur = cut(word, width)
    if cur:
        lines.append(cur)
    return lines or [""]


Press = Callable[[str], None]
"""Does what a key does, like a controller's ``click``."""


def mouse(press: Press, key: str) -> Callable[[MouseEvent], object]:
    """A mouse handler doing what ``key`` does on a click."""

    def handler(event: MouseEvent) -> object:
        if event.event_type != MouseEventType.MOUSE_UP:
            return NotImplemented
        press(key)
        return None

    return handler


def click(ctrl: Controller, key: str) -> Callable[[MouseEvent], object]:
    """A mouse handler pressing ``key`` on the game's controller on a click."""
    return mouse(ctrl.click, key)


def key_frags(key: str, label: str, press: Press | None = None, name: str = "") -> Line:
    """A footer key and its label.

    The key shows as ``name``, or else as its own name. With ``press``, a click on either does
    what the key does.
    """
    frags: Line = [("class:footer.key", f" {name or K.key_name(key)}"),
                   ("class:footer", f" {label} ")]
    if press is None:
        return frags
    handler = mouse(press, key)
    return [(f[0], f[1], handler) for f in frags]


def keys_line(keys: list[tuple[str, str]], press: Press | None = None) -> Line:
    """Footer keys with their labels, each clickable when ``press`` is given."""
    return [f for key, label in keys for f in key_frags(key, label, press)]


def to_text(lines: list[Line]) -> str:
    """The screen as plain text for tests and captures, trailing spaces removed."""
    return "\n".join("".join(f[1] for f in line).rstrip() for line in lines)


def to_fragments(lines: list[Line]) -> StyleAndTextTuples:
    """The screen as prompt_toolkit fragments."""
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(line)
    return out


# -- panels -------------------------------------------------------------------------------------


def _place(state: rules.State, seat: int) -> str:
    return "Tokyo City" if state.city == seat else "Tokyo Bay" if state.bay == seat else ""


def header(ctrl: Controller, words: bool = True) -> Line:
    """Turn, Tokyo's occupants and the check words.

    A monster standing with the stars it needs, 20 or fewer by a card, wins at the end of the turn:
    the turn is called the last."""
    s = ctrl.state
    city = s.monsters[s.city] if s.city >= 0 else "empty"
    last = not s.over and any(s.alive[t] and s.stars[t] >= rules.star_goal(s, t)
                              for t in range(s.n))
    line: Line = [("class:title", f" King of Tokyo · turn {s.turn}{', the last' if last else ''} "),
                  ("", "· Tokyo City: "), ("class:tokyo", city)]
    if s.n >= 5:
        bay = s.monsters[s.bay] if s.bay >= 0 else "empty"
        line += [("", " · Tokyo Bay: "), ("class:tokyo", bay)]
    if ctrl.words and words:
        line += [("", "  "), ("class:words", "check: " + " ".join(ctrl.words))]
    return line


def _bar(value: int, top: int, cells: int, full: str, empty: str) -> str:
    n = max(0, min(cells, round(cells * value / top))) if top > 0 else 0
    return full * n + empty * (cells - n)


def monster_lines(ctrl: Controller, width: int, two_lines: bool, wide: bool = False
                  ) -> list[Line]:
    """One or two lines per monster: ★ ♥ ⚡, place, cards, tokens.

    The active monster and the player's own are marked.
    """
    s, sym, me = ctrl.state, ctrl.sym, ctrl.port.me
    players = ctrl.port.players()
    levels = ctrl.port.levels()
    d = K.decision(s)
    name_w = max(len(m) for m in s.monsters)
    room = 20 if wide else 12
    shown = [fit_name(p[0], room) for p in players]
    player_w = max(get_cwidth(p) for p in shown)
    out: list[Line] = []
    for seat in range(s.n):
        fp = players[seat][1]
        mark = sym.active if seat == s.active else " "
        base = "class:dead" if not s.alive[seat] else "class:you" if seat == me else ""
        who = shown[seat] + " " * (player_w - get_cwidth(shown[seat]))
        line: Line = [("class:active" if seat == s.active else base, mark),
                      (base, f" {s.monsters[seat].ljust(name_w)} "),
                      (base + " class:hint", who + " ")]
        if not s.alive[seat]:
            line.append(("class:dead", f"{sym.dead} out of the game "))
            if seat == me:
                line.append(("class:waiting", "(you)"))
            out.append(line)
            continue
        gone = seat in ctrl.links_down
        hp_max = rules.max_hp(s, seat)
        line += [("class:star", f"{sym.star}{s.stars[seat]:>2}"),
                 ("", "/20 " if wide else " "),
                 ("class:heart", f"{sym.heart}{s.hp[seat]:>2}/{hp_max:<2} "),
                 ("class:energy", f"{sym.energy}{s.energy[seat]:>2} ")]
        if wide:
            line.append(("class:star", _bar(s.stars[seat], 20, 10, sym.bar_full, sym.bar_empty)
                         + " "))
        place = _place(s, seat)
        line.append(("class:tokyo", ("CITY " if place == "Tokyo City" else "BAY  " if place
                                     else "     ")))
        extras = []
        level = levels[seat] if seat < len(levels) else ""
        if level:
            extras.append(f"{level} bot")
        if seat == me:
            extras.append("(you)")
        if gone:
            extras.append("GONE")
        if d is not None and d.seat == seat:
            extras.append("deciding")
        cards = [rules.card_name(c) for c in s.cards[seat]]
        hand = hand_words(s, seat, me)
        if hand:
            cards.append(hand)
        if extras:  # A dot parts them from the cards on the line: "deciding · Stretchy".
            apart = "· " if (cards or s.poison[seat] or s.shrink[seat]) and not two_lines else ""
            line.append(("class:waiting", " ".join(extras) + " " + apart))
        tokens = []
        if s.poison[seat]:
            tokens.append(f"poison {s.poison[seat]}")
        if s.shrink[seat]:
            tokens.append(f"shrink {s.shrink[seat]}")
        if two_lines:  # Every card whole, on as many lines as they need.
            out.append(line)
            head = f"   key {fp}  " + "".join(f"{t}; " for t in tokens)
            packed = pack_names(cards, width - get_cwidth(head), width - 5) or ["no cards"]
            out.append([("class:card.keep", head + packed[0])])
            out += [[("class:card.keep", "     " + p)] for p in packed[1:]]
        else:  # Tokens come first. They are short, and the card names take the room left.
            head = "".join(f"{t}, " for t in tokens) if cards else ", ".join(tokens)
            room = width - width_of(line) - get_cwidth(head)
            line.append(("class:card.keep", head + names_in(cards, room)))
            out.append(line)
    return out


def dice_lines(ctrl: Controller, width: int = 80, rows: int = 1) -> list[Line]:
    """The dice with keep marks and rolls left, then what resolving them now would give."""
    s, sym = ctrl.state, ctrl.sym
    if not s.dice:
        if s.turn == 0 and rules.is_halloween(s):  # the first costumes are still being picked
            return [[("", " Dice: the game starts once every monster has its costume")]]
        who = s.monsters[s.active]
        return [[("", f" Dice: {who} has not rolled yet")]]
    mine = ctrl.my_decision()
    # Keep marks, and the keys that set them, mean something only while the dice may be re-rolled.
    may_reroll = K.may_reroll(s)
    rolling = mine is not None and may_reroll
    kept = ctrl.kept_dice() if may_reroll else frozenset()
    deciding = mine is not None and mine.kind in ("roll", "change")
    line: Line = [("class:title", " Dice ")]
    keys: Line = [("class:hint", " keys ")]  # each die's key under it
    orange = " class:orange" if rules.is_halloween(s) else ""  # Halloween's dice
    for i, face in enumerate(s.dice):
        is_kept = i in kept
        style = ("class:die.kept" if is_kept else "class:die") + orange
        frag = (style, f" {sym.faces[face]}{sym.kept if is_kept else ' '}")
        line.append((*frag, click(ctrl, str(i + 1))) if rolling else frag)
        line.append(("", " "))
        cell = width_of([frag]) + 1
        keys.append(("class:hint", f" {i + 1}".ljust(cell), click(ctrl, str(i + 1))))
    d = K.decision(s)
    if d is not None and d.kind == "roll":  # once resolved, rolls left mean nothing
        line.append(("class:hint", f" rolls left {s.rolls_left}"))
    if rolling:
        keys.append(("class:hint", f" press a die's key to keep it ({sym.kept})"))
    out = [line, keys] if rolling else [line]
    preview = sym.text(resolve_preview(s))
    if preview:
        lead = "resolve now" if deciding else f"if {s.monsters[s.active]} stops now"
        parts = wrap(f"{lead}: {preview}", width - 4)
        if len(parts) > rows:
            parts = [*parts[: rows - 1], cut(" ".join(parts[rows - 1:]), width - 4)]
        out += [[("class:preview", "   " + p)] for p in parts]
    return out


PREVIEW_STOPS = ("roll", "buy", "yield")
"""Decisions the preview stops at: the dice have resolved by then, or a new turn rolls."""


def resolve_preview(state: rules.State) -> str:
    """What stopping now would do, in the engine's words.

    It is this turn's events up to the next turn, without the minor ones. At a roll it is what
    stopping does, at a change-die question what being done does. The card questions on the way,
    such as a change of die or hearts spent on Shrink Ray's tokens, are answered with no, so the
    preview says what the dice will do. It stops at the buying or a choice to yield Tokyo. It is
    empty when stopping is not allowed.
    """
    d = K.decision(state)
    if d is None or d.kind not in ("roll", "change"):
        return ""
    stop = rules.STOP if d.kind == "roll" else rules.DONE
    if stop not in rules.legal_actions(state):
        return ""
    events: list[rules.Event] = []
    try:
        after = rules.apply(state, stop, events=events)
        for _ in range(4 * after.n):  # a few questions per seat at most
            asked = K.decision(after)
            if asked is None or asked.kind in PREVIEW_STOPS:
                break
            legal = rules.legal_actions(after)
            no = next((a for a in (rules.PASS, rules.DONE) if a in legal), None)
            if no is None:
                break
            after = rules.apply(after, no, events=events)
    except (ValueError, KeyError, IndexError):
        return ""
    turn = next((i for i, e in enumerate(events) if isinstance(e, rules.TurnBegan)), len(events))
    # The questions answered with no change no amount, so the lines follow from ``state``.
    told = zip(rules.describe_events(events[:turn], state), events[:turn], strict=True)
    shown = [text for text, e in told if not isinstance(e, rules.DiceKept) and not rules.is_minor(e)]
    return "; ".join(x for x in shown if x) or "nothing happens"


def market_lines(ctrl: Controller, width: int, words: bool = False, rows: int = 1,
                 block: bool = False) -> list[Line]:
    """The three cards for sale with cost, type and effect; deck and discard counts.

    Each effect takes at most ``rows`` lines. In a ``block`` it starts under the card's name,
    and the name is whole.
    """
    s, sym = ctrl.state, ctrl.sym
    mine = ctrl.my_decision()
    buying = mine is not None and mine.kind == "buy"
    out: list[Line] = [[("class:title", " Market "),
                        ("class:hint", f"(deck {len(s.deck)}, discard {len(s.discard)})")]]
    if words and ctrl.words:
        out[0] += [("", "   "), ("class:words", "check: " + " ".join(ctrl.words))]
    if width_of(out[0]) + len(READ_HINT) <= width:
        out[0].append(("class:hint", READ_HINT))
    # The whole name when there is room: the effect keeps at least 33 columns beside it, after
    # the slot, the name, the cost and the type (16 columns more).
    names = [len(rules.CARDS[c].name) for c in s.market if c]
    longest = max(names, default=0)
    name_w = longest if block else max(20, min(longest, width - 16 - 33))
    for slot, card in enumerate(s.market):
        if not card:
            out.append([("class:hint", f" {slot + 1} (empty)")])
            continue
        cd = rules.CARDS[card]
        cost = rules.card_cost(s, ctrl.port.me, card)
        kind = cd.kind
        text = sym.text(safe_text(rules.card_text(card)))
        head = f" {slot + 1} "
        line: Line = [("class:footer.key" if buying else "", head),
                      ("class:card", f" {column(cd.name, name_w)}"),
                      ("class:cost", f"{cost:>2}{sym.energy} "),
                      (f"class:card.{kind}", f"{kind:<8}")]
        indent = width_of(line)
        if block:  # The effect under the name, as wide as the column.
            timing = f"({cd.timing})"
            if indent + get_cwidth(timing) <= width:
                line.append(("class:hint", timing))
            else:
                text = f"{timing} {text}"
            lines = [line] + [[("", "     " + p)] for p in wrap(text, width - 6)[:rows]]
            if buying:
                lines = [[(*f, click(ctrl, str(slot + 1))) for f in ln] for ln in lines]
            out += lines
            continue
        parts = wrap(text, max(10, width - indent))
        if len(parts) > rows:
            parts = [*parts[: rows - 1], cut(" ".join(parts[rows - 1:]), width - indent)]
        line.append(("", parts[0]))
        lines = [line] + [[("", " " * indent + p)] for p in parts[1:]]
        if buying:
            lines = [[(*f, click(ctrl, str(slot + 1))) for f in ln] for ln in lines]
        out += lines
    return out


READ_HINT = "  i reads a card in full"
"""Said beside the market's title when there is room."""


def choice_lines(ctrl: Controller) -> list[Line]:
    """The player's lettered choices, such as card reactions and targets, one per line."""
    if ctrl.my_decision() is None:
        return []
    return [[("class:footer.key", f" {c.key} "),
             ("", f" {ctrl.sym.text(c.label)}", click(ctrl, c.key))]
            for c in K.menu_choices(ctrl.state, ctrl.open_group())]


GENERAL_KEYS = [("?", "help"), ("h", "hint"), ("i", "read a card"), ("k", "cards"), ("c", "chat"),
                ("o", "options"), ("q", "quit")]
"""The keys that work whenever the game screen is up. Some are listed only when they help:
the hint at the player's decision, the chat with another player at the table."""
FOOTER_ROWS = 3
"""At most this many lines for a message in the footer. It is wrapped, never cut short."""


def footer_lines(ctrl: Controller, width: int = 80) -> list[Line]:
    """Whose decision it is and for how long, the keys valid now, and the last message.

    Each key is clickable. The message is wrapped to ``width``.
    """
    s = ctrl.state
    d = K.decision(s)
    press = ctrl.click
    status: Line
    if s.over or ctrl.end is not None:
        status = [("class:footer", " Game over."),
                  *keys_line([("q", "leave"), ("?", "help")], press)]
    elif not s.alive[ctrl.port.me]:
        status = [("class:footer.error", " You are out of the game: watch the rest, or press "),
                  ("class:footer.key", "q", mouse(press, "q")),
                  ("class:footer.error", " to leave (your log is kept)")]
    elif ctrl.my_decision() is not None and d is not None:
        rerolls = K.may_reroll(s)
        # A roll with no re-roll left asks only about cards on the dice, as after it.
        kind = "change" if d.kind == "roll" and not rerolls else d.kind
        status = [("class:footer.key", f" Your move ({K.asked(kind)}) ")]
        group = ctrl.open_group()
        short = [c for c in K.choices(s, group) if c.key not in K.MENU_KEYS]
        menu = K.menu_choices(s, group)
        if menu:
            span = letter_span("".join(c.key for c in menu))
            status += key_frags(span if len(menu) > 1 else menu[0].key, "choose above",
                                _hint(ctrl, "press the letter of a choice listed above, or "
                                      "click it") if len(menu) > 1 else press, span)
        if group is not None:
            status += key_frags("escape", "choose again", press)
        kept = ctrl.kept_dice() if rerolls else frozenset()
        if rerolls:
            n = len(s.dice)
            status += key_frags(f"1-{n}", "keep", _hint(
                ctrl, "press the key under a die (or click the die) to keep it"))
            status += key_frags("r", "re-roll the rest" if not kept else "re-roll", press)
        slots = [c.key for c in short if c.key.isdigit()]
        if slots:
            for slot in slots:
                status += [("class:footer.key", f" {slot}", mouse(press, slot))]
            status += [("class:footer", " buy ")]
        for c in short:
            if not c.key.isdigit():
                status += key_frags(c.key, _SHORT.get(type(c.action).__name__, c.label), press)
        if d.kind == "buy":  # n skips the buying ahead of time: here Enter does the same
            status += key_frags("i", "read", press)
        if kept:
            status += [("class:footer", "· keeping " + " ".join(str(i + 1)
                                                                for i in sorted(kept)) + " ")]

    else:
        seats, secs = ctrl.waiting()
        players = ctrl.port.players()
        names = ", ".join(f"{s.monsters[x]} ({players[x][0]})"
                          + (" GONE" if x in ctrl.links_down else "") for x in seats) or "nobody"
        kind = f" to {K.asked(d.kind)}" if d is not None else ""
        status = [("class:footer", " Waiting for "), ("class:waiting", names),
                  ("class:footer", f"{kind} · {int(secs)} s ")]
    status = _shorter(status, width)
    if ctrl.confirm_quit:
        question: Line = [("class:footer.error", f" {ctrl.quit_question()} "),
                          *keys_line([("y", "quit"), ("escape", "stay")], press)]
        return [status, question]
    group = ctrl.open_group() if ctrl.my_decision() is not None else None
    taken = {c.key for c in K.menu_choices(s, group)} if ctrl.my_decision() is not None else set()
    if ctrl.footer or not any(s.market):  # A message needs the room: the reader is in the help.
        taken.add("i")
    if ctrl.my_decision() is None:
        taken.add("h")
    if not with_people(ctrl):  # nobody would read a chat line
        taken.add("c")
    general = keys_line([k for k in GENERAL_KEYS if k[0] not in taken], press)
    if ctrl.footer:  # The general keys stay, beside the message's last line or under it.
        style = "class:footer.error" if ctrl.footer_error else "class:footer"
        parts = footer_parts(ctrl.footer, max(10, width - 2))
        msg: list[Line] = [[(style, f" {p} ")] for p in parts]
        room = width - width_of(msg[-1]) - width_of(general)
        if room >= 1:
            msg[-1] += [("", " " * room), *general]
            return [status, *msg]
        return [status, *msg, general]
    return [status, general]


def footer_parts(text: str, width: int, rows: int = FOOTER_ROWS) -> list[str]:
    """A message in at most ``rows`` lines of ``width``.

    A list of events, parted by ``;``, that does not fit keeps its first ones whole and says how
    many more the log holds. Other text is cut at the end."""
    parts = wrap(text, width)
    if len(parts) <= rows:
        return parts
    items = text.split("; ")
    for keep in range(len(items) - 1, 0, -1):
        shorter = wrap("; ".join(items[:keep]) + f"; {len(items) - keep} more in the log", width)
        if len(shorter) <= rows:
            return shorter
    return [*parts[: rows - 1], cut(" ".join(parts[rows - 1:]), width)]


SHORTER = {" choose above ": " choose ", " re-roll the rest ": " re-roll ",
           " resolve ": " go "}
"""Shorter labels for a status line that would not fit. Its keys are never cut."""


def _shorter(status: Line, width: int) -> Line:
    """``status`` with shorter labels while it is wider than ``width``."""
    if width_of(status) <= width:
        return status
    return [(f[0], SHORTER.get(f[1], f[1]), *f[2:]) for f in status]


def with_people(ctrl: Controller) -> bool:
    """True if another person plays at the table, not only bots."""
    levels = ctrl.port.levels()
    return any(not levels[x] for x in range(len(levels)) if x != ctrl.port.me)


def letter_span(letters: str) -> str:
    """Menu letters as the footer says them: ``a-j``, or ``a-j l m`` past a gap."""
    run = next((i for i in range(1, len(letters)) if ord(letters[i]) != ord(letters[0]) + i),
               len(letters))
    head = letters[0] + ("" if run == 1 else "-" + letters[run - 1]) if letters else ""
    return " ".join([head, *letters[run:]])


def _hint(ctrl: Controller, text: str) -> Press:
    """A click on a key that stands for several, like ``1-5``: say how to use them."""
    return lambda key: ctrl.say(text)


KEY_HINTS = (
    "Rolling: the key under a die keeps it (▲), r re-rolls the rest, Enter resolves.",
    "Smashed in Tokyo: y yields, s stays.   Buying: 1 2 3 buy, w sweeps, Enter done.",
    "Card questions: the letters listed above.   PgUp/PgDn scroll the log.",
    "? help   h hint   i read a card   k card browser   c chat   o options   q quit",
)
"""The key reference shown when the screen has room for it."""

_SHORT = {"Stop": "resolve", "Done": "done", "Pass": "pass", "Yield": "yield", "Stay": "stay",
          "Sweep": "sweep"}


def log_lines(entries: list[LogLine], width: int, height: int, scroll: int) -> list[Line]:
    """The last ``height`` lines of the log, ``scroll`` lines back, wrapped to ``width``."""
    if height <= 0:
        return []
    end = len(entries) - scroll
    wrapped: list[Line] = []
    for entry in reversed(entries[max(0, end - height):max(0, end)]):
        parts = wrap(entry.text, max(1, width - 1))
        new: list[Line] = [[(f"class:{entry.style}", " " + p)] for p in parts]
        wrapped = new + wrapped
        if len(wrapped) >= height:
            break
    return wrapped[-height:]


MIN_WIDTH = 60
"""Fewer columns cut what every line says: the screen asks for a bigger window instead."""


def min_size(state: rules.State) -> tuple[int, int]:
    """The smallest window, in columns and lines, that shows this game.

    The lines are the header, the monsters, the rule, the dice with their keys and the preview,
    the market, the footer and at least one line of the log.
    """
    return MIN_WIDTH, 12 + state.n


def too_small(ctrl: Controller, width: int, height: int) -> list[Line]:
    """What the screen says in a window smaller than :func:`min_size`. q still quits."""
    need_w, need_h = min_size(ctrl.state)
    text = (f"The terminal is too small: {width}×{height}. The game needs at least "
            f"{need_w}×{need_h}: make the window bigger or the font smaller.")
    lines: list[Line] = [[("class:footer.error", " " + ln)] for ln in wrap(text, width - 2)]
    if ctrl.confirm_quit:
        lines += [[("class:footer.error", " " + ln)] for ln in wrap(ctrl.quit_question(),
                                                                     width - 2)]
        keys = keys_line([("y", "quit"), ("escape", "stay")], ctrl.click)
    else:
        keys = keys_line([("q", "leave" if ctrl.end is not None else "quit")], ctrl.click)
    lines = lines[: max(0, height - 1)]
    while len(lines) < height - 1:
        lines.append([])
    return [fit(line, width) for line in [*lines, keys][-height:]] if height > 0 else []


def reader_lines(ctrl: Controller, width: int) -> list[Line]:
    """The card reader: the card :attr:`Controller.reading` names, whole. Empty when closed."""
    cards = ctrl.readable()
    if ctrl.reading is None or not cards:
        return []
    at = min(ctrl.reading, len(cards) - 1)
    where, card = cards[at]
    cd = rules.CARDS[card]
    cost = rules.card_cost(ctrl.state, ctrl.port.me, card) if where.startswith("market") \
        else cd.cost
    head: Line = [("class:card", f" {cd.name} "), ("class:cost", f"{cost}{ctrl.sym.energy} "),
                  (f"class:card.{cd.kind}", cd.kind)]
    out: list[Line] = [[("class:title", f" Card {at + 1} of {len(cards)}: {where} "),
                        ("class:hint", "· i next · Esc close")], head]
    timing = f"({cd.timing})"
    if width_of(head) + 1 + get_cwidth(timing) <= width:
        head.append(("class:hint", " " + timing))
    else:  # A long timing gets lines of its own, whole.
        out += [[("class:hint", "  " + p)] for p in wrap(timing, width - 3)]
    text = ctrl.sym.text(safe_text(rules.card_text(card)))
    return out + [[("", "  " + p)] for p in wrap(text, width - 3)]


def _top(ctrl: Controller, width: int, market_w: int) -> tuple[list[Line], bool]:
    """The header, and whether the check words go beside the market's title instead.

    The check words are never cut: in the header, beside the market's title, or on a line of
    their own."""
    top: list[Line] = [header(ctrl)]
    if width_of(top[0]) <= width:
        return top, False
    top = [header(ctrl, words=False)]
    if width_of(market_lines(ctrl, market_w, True)[0]) <= market_w:
        return top, True
    return [*top, [("class:words", " check: " + " ".join(ctrl.words))]], False


def game_screen(ctrl: Controller, width: int, height: int) -> list[Line]:
    """The game screen at ``width`` × ``height``."""
    if width >= WIDE:
        return _wide_screen(ctrl, width, height)
    s = ctrl.state
    fixed = 1 + 1 + 2 + 4 + 2  # header, rule, dice, market, footer
    choices = choice_lines(ctrl)
    spare = height - fixed - s.n - 2 - len(choices)
    rows = 1 if spare < 10 else 2
    top, words_below = _top(ctrl, width, width)
    upper: list[Line] = monster_lines(ctrl, width, False)
    upper.append([("class:frame", ctrl.sym.rule * width)])
    market = market_lines(ctrl, width, words_below, rows)
    foot = footer_lines(ctrl, width)
    free = height - len(top) - len(foot)
    reader = reader_lines(ctrl, width)
    # What resolving now would do decides the roll, and may say who gets hit. It gets up to 4
    # lines, as long as the log keeps two.
    least = dice_lines(ctrl, width, 1)
    room = free - len(upper) - max(2, len(least)) - len(market) - len(choices) - len(reader) - 2
    dice = dice_lines(ctrl, width, max(rows, min(4, 1 + room)))
    upper += dice if len(dice) > 1 else [*dice, []]
    if reader and len(upper) + len(market) + len(choices) + len(reader) > free:
        market = []  # The card read is worth more than one line of each card for sale.
    body = [*upper, *market, *choices]
    lines = [*body[: max(0, free - len(reader))], *reader]
    lines += log_lines(list(ctrl.log), width, free - len(lines), ctrl.scroll)
    return _finish(top + lines, foot, width, height)


def _wide_screen(ctrl: Controller, width: int, height: int) -> list[Line]:
    """The game screen from :data:`WIDE` columns on.

    The monsters and the dice take the whole width. Below them the market, with every effect in
    full, sits beside the game log."""
    s = ctrl.state
    market_w = max(60, (width - 1) // 2)
    log_w = width - market_w - 1
    top, words_below = _top(ctrl, width, market_w)
    foot = footer_lines(ctrl, width)
    free = height - len(top) - len(foot)
    choices = choice_lines(ctrl)
    two = height >= 10 + 2 * s.n + 12
    monsters = monster_lines(ctrl, width, two, wide=True)
    if two and free - len(monsters) < 16 + len(choices):  # Cards by name, one line each.
        monsters = monster_lines(ctrl, width, False, wide=True)
    dice = dice_lines(ctrl, width, 2)
    upper: list[Line] = [*monsters, [("class:frame", ctrl.sym.rule * width)],
             *(dice if len(dice) > 1 else [*dice, []]), *choices]
    lower = free - len(upper)
    rows = max(1, min(6, (lower - 1) // 3 - 1))
    left = market_lines(ctrl, market_w, words_below, rows, block=True)
    told = KEY_HINTS if with_people(ctrl) else [ln.replace("   c chat", "") for ln in KEY_HINTS]
    hints: list[Line] = [[("class:hint", " " + p)] for ln in told
                         for p in wrap(ln.replace("▲", ctrl.sym.kept), market_w - 2)]
    if len(left) + 1 + len(hints) <= lower:
        left += [[], *hints]
    reader = reader_lines(ctrl, log_w)
    title: Line = [("class:title", " Game log and chat")]
    room = lower - len(reader) - 1
    right = [*reader, title, *log_lines(list(ctrl.log), log_w, room, ctrl.scroll)]
    lines: list[Line] = [*top, *upper]
    for i in range(max(0, lower)):
        lf = fit(left[i], market_w) if i < len(left) else fit([], market_w)
        rf = fit(right[i], log_w) if i < len(right) else fit([], log_w)
        lines.append([*lf, ("class:frame", "│"), *rf])
    return _finish(lines, foot, width, height)


def _finish(lines: list[Line], foot: list[Line], width: int, height: int) -> list[Line]:
    """``lines`` padded or cut to leave the footer its room, then the footer."""
    lines = lines[: height - len(foot)]
    while len(lines) < height - len(foot):
        lines.append([])
    return [fit(line, width) for line in [*lines, *foot][:height]]
