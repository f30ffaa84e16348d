"""The screens other than the game: help, the card browser, the options, the end and the lobby."""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.utils import get_cwidth

from kotp2p import rules
from kotp2p.net.lobby import EXPANSION_NAMES, MARK, LobbyView
from kotp2p.net.wire import safe_text
from kotp2p.ui.full.screen import (
    Line,
    Press,
    column,
    fit,
    key_frags,
    keys_line,
    mouse,
    width_of,
    wrap,
)
from kotp2p.ui.hands import ASK_WORDS
from kotp2p.ui.lobby import EXPANSION_TEXTS, PICK
from kotp2p.ui.model import Controller
from kotp2p.ui.program import program
from kotp2p.ui.stats import stats_legend, stats_rows
from kotp2p.ui.symbols import Symbols

RULES_TEXT = """\
A turn: roll the dice up to three times (keep the ones you like between rolls), then they resolve:
1 2 3 score stars for three of a kind (3 of 1s = 1 star, each extra die +1), energy dice give
energy, hearts heal (not in Tokyo), smashes hit: from Tokyo, every monster outside; from outside,
the monsters in Tokyo. A monster in Tokyo that is hit may yield it; {enter}. Then you may buy
Power cards with energy. Starting a turn in Tokyo {start}. First to 20 stars, or the last one
standing, wins."""
"""The turn in short; :func:`help_text` fills in what this game's rules give for Tokyo."""

HELP_KEYS = """\
Keys while rolling: 1-6 (or 1-8) keep or unkeep a die (it stays kept after a re-roll),
r re-roll the dice not kept, Enter resolve.
When smashed in Tokyo: y yield (leave), s stay.  Buying: 1 2 3 buy that card, w sweep the market
(2 energy), Enter done (n while rolling: skip it).  Card questions: the letters listed on screen,
Enter to pass.  Anywhere: ? this help, k the card browser (type to search), c chat, o options
(auto-leave, auto-stay, the pause), i read a card, h hint, e vote to eject a player past the deadline,
PgUp/PgDn scroll the log, q quit (the game stays resumable: {program} resume).  Mouse clicks on dice,
market cards, choices and the keys in the footer work too.

Esc or ? closes this help; k opens the card browser."""


def help_text(state: rules.State | None = None) -> str:
    """The help's text, with the rules that apply to ``state``'s game.

    A ``state`` of None means any game. The 2-player variant gives energy for Tokyo instead of
    stars. A game of 5 or more has Tokyo Bay.
    """
    two = state is not None and state.two_player
    bay = state is None or state.n >= 5
    if bay:
        enter = ("if Tokyo City is empty the active monster enters it, else (with 5 or more "
                 "monsters alive) Tokyo Bay if empty")
    else:
        enter = "if Tokyo is empty the active monster enters it"
    enter += " (+1 energy: 2-player variant)" if two else " (+1 star)"
    start = "gives 1 energy (2-player variant)" if two else "gives 2 stars"
    halloween = HALLOWEEN_TEXT + "\n\n" if state is not None and rules.is_halloween(state) else ""
    keys = HELP_KEYS.format(program=program())
    return RULES_TEXT.format(enter=enter, start=start) + "\n\n" + halloween + keys


HALLOWEEN_TEXT = """Halloween is on. Each monster began with a costume: it drew two, kept one \
and put the other back unseen. Costumes sit in front of their owner like Keep cards, and the \
market sells them too. After entering Tokyo, a monster whose dice made 3 or more smashes may \
take costumes from the monsters those smashes wounded, paying each owner the costume's price. \
The card browser, k, says what each costume does."""


def _page(title: str, body: list[Line], width: int, height: int, footer: Line | str,
          bottom: list[Line] | None = None, scroll: int | None = 0,
          press: Press | None = None) -> list[Line]:
    """A page: title, ``body`` from ``scroll`` lines down, ``bottom`` and the footer.

    ``bottom`` is always shown, right above the footer. A body longer than the room left scrolls:
    the footer then starts with the keys that scroll it. A ``scroll`` of None means a page that
    cannot scroll: its body is cut.
    """
    bottom = bottom or []
    room = max(0, height - 3 - len(bottom))
    limit = 0 if scroll is None else scroll_limit(body, height, len(bottom))
    scroll = max(0, min(scroll or 0, limit))
    lines: list[Line] = [[("class:title", f" {title}")], []]
    lines += body[scroll:scroll + room]
    while len(lines) < height - 1 - len(bottom):
        lines.append([])
    lines += bottom
    foot: Line = [("class:footer", f" {footer}")] if isinstance(footer, str) else footer
    keys = [*([("pageup", "back")] if scroll > 0 else []),
            *([("pagedown", "more")] if scroll < limit else [])]
    lines.append([*keys_line(keys, press), *foot])
    return [fit(line, width) for line in lines[-height:]] if height > 0 else []


def scroll_limit(body: list[Line], height: int, bottom: int = 0) -> int:
    """How many lines a page of ``height`` lines scrolls ``body`` at most."""
    return max(0, len(body) - max(0, height - 3 - bottom))


def help_body(width: int, state: rules.State | None = None) -> list[Line]:
    """The help's lines at ``width``: :func:`help_text` wrapped."""
    body: list[Line] = []
    for para in help_text(state).split("\n\n"):
        body += [[("", " " + ln)] for ln in wrap(" ".join(para.split()), width - 2)]
        body.append([])
    return body


def help_page(width: int, height: int, press: Press | None = None,
              state: rules.State | None = None, scroll: int = 0) -> list[Line]:
    """The turn structure with the rules of ``state``'s game, and the keys.

    :func:`help_text` gives the rules. ``press`` is what a click on a footer key does. The page
    is shown from ``scroll`` lines down.
    """
    return _page("Help", help_body(width, state), width, height,
                 keys_line([("escape", "back to the game"), ("k", "card browser")], press),
                 scroll=scroll, press=press)


def matching_cards(query: str, state: rules.State | None = None) -> list[int]:
    """The cards whose name, type or effect contains every word of ``query``.

    Halloween's costumes are among them only in a Halloween game, Power Up!'s Evolutions only in a
    Power Up! game."""
    words = query.lower().split()
    out = []
    seen: set[str] = set()
    costumes = state is not None and rules.is_halloween(state)
    evolutions = state is not None and rules.is_power_up(state)
    for card, cd in sorted(rules.CARDS.items(), key=lambda kv: kv[1].name):
        if cd.name in seen or (cd.kind == rules.COSTUME and not costumes):
            continue
        if cd.kind in rules.EVOLUTION_KINDS and not evolutions:
            continue
        hay = f"{cd.name} {cd.kind} {rules.card_text(card)}".lower()
        if all(w in hay for w in words):
            seen.add(cd.name)
            out.append(card)
    return out


def whereabouts(state: rules.State, card: int) -> str:
    """Where the card named like ``card`` is in ``state``: in the market, and who has it."""
    name = rules.CARDS[card].name
    where = [f"in the market ({slot + 1})" for slot, c in enumerate(state.market)
             if c and rules.CARDS[c].name == name]
    where += [f"{state.monsters[seat]} has it" for seat in range(state.n)
              for c in state.cards[seat] if rules.CARDS[c].name == name]
    return ", ".join(where)


def cards_body(query: str, sym: Symbols, width: int, state: rules.State | None = None
               ) -> list[Line]:
    """The card browser's lines for ``query``: name, cost, type, timing and effect per card.

    With a ``state``, the cards in its market and in front of its monsters come first, each
    marked with where it is."""
    found = matching_cards(query, state)
    marks = {card: whereabouts(state, card) for card in found} if state is not None else {}
    found.sort(key=lambda card: not marks.get(card))
    longest = max((len(rules.CARDS[c].name) for c in found), default=0)
    name_w = min(longest, max(12, width - 24))  # name, cost and type stay in columns
    body: list[Line] = []
    for card in found:
        cd = rules.CARDS[card]
        kind = cd.kind
        line: Line = [("class:card", f" {column(cd.name, name_w)}"),
                      ("class:cost", f" {cd.cost:>2}{sym.energy}"),
                      (f"class:card.{kind}", f"  {kind:<7}")]
        timing = f"({cd.timing})"
        if width_of(line) + 2 + get_cwidth(timing) <= width:
            line.append(("class:hint", "  " + timing))
            body.append(line)
        else:  # the timing on its own lines, under the name
            body.append(line)
            body += [[("class:hint", "    " + ln)] for ln in wrap(timing, width - 5)]
        if marks.get(card):
            body += [[("class:tokyo", "    " + ln)] for ln in wrap(marks[card], width - 5)]
        body += [[("", "    " + ln)] for ln in wrap(sym.text(rules.card_text(card)), width - 5)]
    return body


def cards_scroll_limit(query: str, sym: Symbols, width: int, height: int,
                       state: rules.State | None = None) -> int:
    """How many lines the card browser scrolls at this size."""
    return scroll_limit(cards_body(query, sym, width, state), height - 1)


def cards_page(query: str, sym: Symbols, width: int, height: int, press: Press | None = None,
               scroll: int = 0, state: rules.State | None = None) -> list[Line]:
    """Every card matching ``query``: name, cost, type and effect, from ``scroll`` lines down.

    With a ``state``, the cards in play come first and say where they are. The search line is
    below the page.
    """
    n = len(matching_cards(query, state))
    title = f"Cards: {n} match" + ("" if not query else f" {query!r}")
    if state is not None:
        title += " · those in play first"
    return _page(title, cards_body(query, sym, width, state), width, height - 1,
                 [*keys_line([("escape", "back to the game")], press),
                  ("class:footer", "· type to search")],
                 scroll=scroll, press=press)


def options_page(ctrl: Controller, width: int, height: int) -> list[Line]:
    """The player's comfort options and their keys."""
    c, sym = ctrl.comfort, ctrl.sym
    leave = "off" if c.auto_leave is None else f"at or under {c.auto_leave}{sym.heart}"
    stay = "off" if c.auto_stay is None else f"at or over {c.auto_stay}{sym.heart}"
    body: list[Line] = [
        [("", f"  Auto-leave Tokyo when smashed: {leave}"), ("class:hint", "   (1 lower, 2 raise)")],
        [("", f"  Auto-stay in Tokyo when smashed: {stay}"), ("class:hint", "   (3 lower, 4 raise)")],
        [("", f"  Pause to read others' moves: {c.pause:.1f} s"),
         ("class:hint", "   (5 shorter, 6 longer)")],
        [("", f"  Ask about Evolutions (Power Up!): {ASK_WORDS[c.ask_evolutions]}"),
         ("class:hint", "   (7 changes)")],
        [],
        [("class:hint", "  Skip buying for one turn: press n during the game.")],
    ]
    return _page("Options", body, width, height,
                 keys_line([("escape", "back to the game")], ctrl.click), scroll=None)


def chunks(text: str, width: int) -> list[str]:
    """``text`` in pieces of ``width`` characters.

    The text is a path or a command, so it is never cut short.
    """
    width = max(1, width)
    return [text[i:i + width] for i in range(0, len(text), width)] or [""]


def end_page(ctrl: Controller, width: int, height: int, scroll: int = 0) -> list[Line]:
    """Ranking, each monster's figures, where the log is and how to verify it.

    The page is shown from ``scroll`` lines down.
    """
    return _page("Game over", end_body(ctrl, width), width, height,
                 keys_line([("q", "leave"), ("?", "help")], ctrl.click), scroll=scroll,
                 press=ctrl.click)


def end_body(ctrl: Controller, width: int) -> list[Line]:
    """The end page's lines at ``width``. They are empty before the end."""
    end = ctrl.end
    sym = ctrl.sym
    body: list[Line] = []
    if end is None:
        return body
    body += [[("class:title", f" {ln}")] for ln in wrap(end.summary, width - 2)]
    body.append([])
    rows = stats_rows(end.stats, sym.star, sym.heart, sym.energy)
    body.append([("class:hint", rows[0])])
    players = ctrl.port.players()
    for m, text in zip(end.stats, rows[1:], strict=True):
        style = "class:you" if m.seat == ctrl.port.me else "" if m.alive else "class:dead"
        body.append([(style, text + "  "), ("class:hint", players[m.seat][0])])
    body.append([])
    legend = stats_legend(sym.heart, sym.energy)
    body += [[("class:hint", f" {ln}")] for ln in wrap(legend, width - 2)]
    body.append([])
    if end.log_path:  # in full even when longer than a line: it is to be copied
        body.append([("", " The game's log: ")])
        body += [[("class:card", f"   {ln}")] for ln in chunks(end.log_path, width - 4)]
        body.append([("", " Anyone can check it:")])
        body += [[("class:card", f"   {ln}")]
                 for ln in chunks(f"{program()} verify {end.log_path}", width - 4)]
    return body


def heard_lines(heard: Sequence[str], selected: int, width: int, room: int,
                press: Press | None = None) -> list[Line]:
    """The games heard on the LAN, numbered, ``selected`` highlighted, in at most ``room`` lines.

    A long list shows the part around ``selected``, with how many games are above and below.
    """
    groups: list[list[Line]] = []
    for i, game in enumerate(heard):
        marked = game.startswith(MARK)  # a name or host key announced twice
        style = "class:you" if i == selected else "class:log.warn" if marked else ""
        parts = wrap(safe_text(game), width - 6)
        mark = ">" if i == selected else " "
        lines: list[Line] = [[("class:footer.key", f"{mark}{i + 1:>2} "), (style, f" {parts[0]}")]]
        lines += [[(style, f"     {p}")] for p in parts[1:]]
        groups.append(lines if press is None else [[(*f, mouse(press, f"{PICK}{i}")) for f in ln]
                                                   for ln in lines])
    title: Line = [("class:title", " Games heard on the LAN (Up/Down and Enter, or type its "
                                   "number)")]
    if sum(len(g) for g in groups) + 1 <= room:
        return [title, *(ln for g in groups for ln in g)]
    selected = min(max(selected, 0), len(groups) - 1)
    first = last = selected
    used = len(groups[selected])
    while True:  # Grow the window around the selected game. Keep two lines for "more" marks.
        grown = False
        if last + 1 < len(groups) and used + len(groups[last + 1]) <= room - 3:
            last += 1
            used += len(groups[last])
            grown = True
        if first > 0 and used + len(groups[first - 1]) <= room - 3:
            first -= 1
            used += len(groups[first])
            grown = True
        if not grown:
            break
    out = [title]
    out.append([("class:hint", f"   ↑ {first} more above" if first else "")])
    out += [ln for g in groups[first:last + 1] for ln in g]
    below = len(groups) - 1 - last
    out.append([("class:hint", f"   ↓ {below} more below" if below else "")])
    return out


def lobby_page(view: LobbyView, *, me: int | None, join_code: str | None, words: Sequence[str],
               heard: Sequence[str], status: str, width: int, height: int,
               notes: Sequence[str] = (), press: Press | None = None,
               is_host: bool = True, status_error: bool = False, failed: bool = False,
               selected: int = 0, monsters: Sequence[str] = ()) -> list[Line]:
    """The lobby page.

    It shows the games heard on the LAN and the seats. A seat shows its name, key fingerprint,
    monster, whether it is ready, and whether it is a bot. The free ``monsters`` follow, in the
    order m picks them, the next one first. Then come the join code and the check words. The
    status sits right above the keys. It is wrapped, never cut, because a refusal says what to
    do.

    ``press`` is what a click on a key does. ``failed`` means the lobby is over and only leaving
    is left. ``selected`` is the game of ``heard`` highlighted.
    """
    style = "class:footer.error" if status_error else "class:waiting"
    bottom: list[Line] = [[(style, f"  {ln}")] for ln in wrap(safe_text(status, 500), width - 3)]
    notes_lines: list[Line] = [[("class:hint", f"  {ln}")] for n in notes
                               for ln in wrap(safe_text(n, 500), width - 3)]
    if failed:
        return _page("Lobby", notes_lines, width, height, keys_line([("q", "leave")], press),
                     bottom, scroll=None)
    body: list[Line] = []
    if heard:
        room = height - 5 - len(bottom) - len(notes_lines)
        body += heard_lines(heard, selected, width, max(room, 3), press)
        body.append([])
    if not view.seats:  # not in a lobby yet
        footer = keys_line([("q", "leave")], press)
        if heard:
            footer = [*key_frags("down", "choose", press, name="↑↓"),
                      *key_frags("enter", "join", press), ("class:footer.key", " 0-9"),
                      ("class:footer", " its number "), *footer]
        return _page("Lobby", body + notes_lines, width, height, footer, bottom, scroll=None)
    taken = len(view.seats) - view.free_seats
    body.append([("class:title", f" {safe_text(view.game_name)}"),
                 ("class:hint", f"  {taken}/{len(view.seats)} seats (name, key fingerprint, "
                                "monster, ready)")])
    if view.seats[0].key:  # seat 0 is the host's: its key signs the game's beacon
        body.append([("class:hint", "  host key "), ("class:card", view.seats[0].fingerprint),
                     ("class:hint", ": the list of games shows it too; compare them")])
    for i, seat in enumerate(view.seats):
        you = "class:you" if i == me else ""
        if seat.is_free:
            body.append([("class:hint", f"  seat {i}: free")])
            continue
        ready = "ready" if seat.ready else "not ready"
        bot = f" bot ({seat.bot})" if seat.bot else ""
        body.append([(you, f"  seat {i}: {safe_text(seat.name)[:14]:<14}"),
                     ("class:hint", f" {seat.fingerprint} "),
                     ("class:card", f" {seat.monster or 'no monster yet':<14}"),
                     ("class:energy" if seat.ready else "class:waiting", f" {ready}"),
                     ("class:hint", bot + (" (you)" if i == me else ""))])
    body.append([])
    variant = {None: "by seat count", True: "on", False: "off"}[view.two_player_variant]
    body.append([("class:hint", f"  2-player variant: {variant}; timeout {view.timeout} s")])
    for name, label in EXPANSION_NAMES.items():
        on = f"on: {EXPANSION_TEXTS[name]}" if name in view.expansions else "off"
        body.append([("class:hint", f"  {label}: {on}")])
    if monsters and me is not None:
        body += [[("class:hint", f"  {ln}")] for ln in wrap(
            "m picks, in turn: " + ", ".join(safe_text(m) for m in monsters), width - 3)]
    if join_code:
        body.append([("", "  Join code: "), ("class:card", safe_text(join_code))])
    if words:
        body.append([("", "  Check words: "), ("class:words", " ".join(words))])
    body.append([])
    body += notes_lines
    keys = [("m", "pick a monster"), ("r", "ready"),
            *([("s", "start"), ("h", "Halloween"), ("p", "Power Up!")] if is_host else []),
            ("q", "leave")]
    return _page("Lobby", body, width, height, keys_line(keys, press), bottom, scroll=None)
