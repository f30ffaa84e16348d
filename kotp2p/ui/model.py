"""The terminal UI's one state object and its controller: what is on screen, and what keys do.

Theory of operation
-------------------
The screen is a function of a :class:`Controller`, drawn by :mod:`kotp2p.ui.full.screen`. Key bindings
only call :meth:`Controller.press`. The controller talks to the game through a :class:`GamePort`.
The port gives the state the player's seat holds and who is awaited. It takes ``submit``,
``chat``, ``vote_eject`` and ``quit``. The bridge implements the port over a session. Tests
implement it over a bare state.

What is legal is always the engine's answer, given through :mod:`kotp2p.ui.keys`. The controller
adds only the player's preferences. These are keep marks on dice, auto-leave and auto-stay
thresholds, and "skip buying this turn".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from kotp2p import rules
from kotp2p.bots import hint
from kotp2p.net.session import (
    CaughtUp,
    ChatLine,
    DiceRolled,
    EjectAsked,
    FrameRefused,
    GameOver,
    LinkChanged,
    MoveApplied,
    Narrated,
    Notice,
    Resumed,
    Update,
    ViolationSeen,
    Waiting,
    YourTurn,
    tell,
)
from kotp2p.net.wire import Refusal, safe_text
from kotp2p.ui import keys as K
from kotp2p.ui.hands import ASK_EVOLUTIONS, EvolutionAsk
from kotp2p.ui.program import program
from kotp2p.ui.refusals import plain_refusal
from kotp2p.ui.stats import MonsterStats
from kotp2p.ui.symbols import UNICODE, Symbols

LOG_LINES = 500
HOLD_FACTOR = 3.0
HOLD_MIN = 2.0
CARD_PAGE = 10
"""Lines PgUp/PgDn move the card browser."""
SCROLL_STEPS = {"pagedown": CARD_PAGE, "pageup": -CARD_PAGE, "down": 1, "up": -1}
"""Lines each scrolling key moves the card browser, the help or the end page."""
AUTO_LEAVE_MAX = 9
"""The options page's auto-leave goes off, 1..this ♥, off.

A smashed monster has lost at least 1♥ of its usual 10.
"""
AUTO_STAY_MAX = 12
"""The options page's auto-stay goes off, 1..this ♥, off. Cards can raise the maximum to 12♥."""
THINKING = "the hard bot is thinking…"
"""The footer while the hint is worked out."""


def hurts(event: object, seat: int) -> bool:
    """True when the engine's ``event`` is a blow to ``seat``.

    A blow is a loss of ♥ from anybody, poison included, or the monster being out.
    """
    if isinstance(event, rules.Damaged):
        return event.seat == seat and event.amount > 0
    return isinstance(event, rules.Eliminated) and event.seat == seat


ENTER_GUARD = 1.0
"""Seconds after a new kind of question during which Enter is taken as meant for the last one."""


def event_style(event: object, me: int) -> str:
    """The log's style for an event: a hit on the player, other damage, healing, or plain."""
    if hurts(event, me):
        return "log.hit"
    if isinstance(event, rules.Damaged) and event.amount > 0:
        return "log.damage"
    if isinstance(event, rules.Healed) and event.amount > 0:
        return "log.heal"
    return "log.event"


def result_for(over: GameOver, me: int, name: Callable[[int], str]) -> str:
    """How the game ended, said to the player of seat ``me``.

    It reads "You won!" or "You lost: X won." When everybody lost, it is ``over.summary``.
    ``name`` names a seat as the summary does.
    """
    summary = safe_text(over.summary)
    if not over.winners:
        return summary
    if me not in over.winners:
        return f"You lost: {summary}"
    others = [name(w) for w in over.winners if w != me]
    with_ = f", together with {' and '.join(others)}" if others else ""
    if over.forfeit:
        return f"You won by forfeit{with_}: the last opponents were ejected."
    return f"You won{with_}!"


class GamePort(Protocol):
    """What the UI needs from a game: a session, or a test's stand-in."""

    me: int

    @property
    def state(self) -> rules.State:
        """The state as the player's seat holds it."""
        ...

    def players(self) -> tuple[tuple[str, str], ...]:
        """Each seat's player name and key fingerprint, both terminal-safe."""
        ...

    def levels(self) -> tuple[str, ...]:
        """Each seat's bot level, such as ``greedy``; empty for a human."""
        ...

    def awaited(self) -> tuple[int, ...]:
        """The seats the game waits on."""
        ...

    def submit(self, action: rules.Action) -> None:
        """Play ``action`` for the player's seat.

        A refusal comes back through :meth:`Controller.refused`.
        """
        ...

    def chat(self, text: str) -> None:
        """Say a line to everyone."""
        ...

    def vote_eject(self) -> None:
        """Vote to eject the seats holding the game up."""
        ...

    def quit(self) -> None:
        """Stop here; the game can be resumed."""
        ...

    def aside(self, work: Callable[[], str], done: Callable[[str], None]) -> None:
        """Run ``work``, which may take a second, away from the screen's thread, and hand its
        result to ``done`` on that thread. The screen redraws after ``done``."""
        ...


@dataclass
class Comfort:
    """The player's preferences: thresholds in ♥, None when off, and the pause in seconds."""

    auto_leave: int | None = None
    auto_stay: int | None = None
    pause: float = 0.8
    ask_evolutions: str = "playable"
    """When to ask about Evolutions: ``always``, ``playable`` or ``never``."""


@dataclass
class LogLine:
    """A line of the game log: its style class and text."""

    style: str
    text: str


@dataclass
class EndInfo:
    """What the end screen shows."""

    summary: str
    log_path: str
    stats: list[MonsterStats] = field(default_factory=list)


class Controller:
    """The UI state, and every action the keys can take."""

    def __init__(self, port: GamePort, *, symbols: Symbols = UNICODE, comfort: Comfort | None = None,
                 clock: Callable[[], float] = lambda: 0.0, words: tuple[str, ...] = (),
                 log_path: str = "", end_stats: Callable[[], list[MonsterStats]] | None = None
                 ) -> None:
        self.port = port
        self.sym = symbols
        self.comfort = comfort or Comfort()
        self.evolutions = EvolutionAsk(self.comfort.ask_evolutions)
        """When the player is asked about Evolutions: the session answers for them otherwise.
        The app hands it to the session."""
        self.clock = clock
        self.words = words
        self.log_path = log_path
        self.end_stats = end_stats
        self.screen = "game"  # game, help, cards, options, end
        self.on_click: Callable[[], None] = lambda: None
        """Called after a click did what a key does. The application follows: focus or leave."""
        self.confirm_quit = False
        self.chatting = False
        self.kept: set[int] = set()
        self._dice_key: tuple[int, int, tuple[int, ...]] = (-1, -1, ())
        self.footer = ""
        self.footer_error = False
        self.log: deque[LogLine] = deque(maxlen=LOG_LINES)
        self.scroll = 0
        self.card_scroll = 0
        """Lines the card browser is scrolled down. The page keeps it in range."""
        self.page_scroll = 0
        """Lines the help or the end page is scrolled down. The page keeps it in range."""
        self.group: K.Group | None = None
        """The card and die whose faces the menu lists, after the player picked them."""
        self.reading: int | None = None
        """The card the card reader shows, as an index of :meth:`readable`. None: it is closed."""
        self.skip_buy_turn = -1
        self.eject_asked: tuple[int, ...] = ()
        self.links_down: set[int] = set()
        self.end: EndInfo | None = None
        self.stopped = False
        self.exit_requested = False
        self.interrupted = False
        """Ctrl-C was pressed: the command ends with the code of an interrupt."""
        self.moves = 0
        """Moves seen so far. The waiting time restarts at each."""
        self.hold = False
        """Something about the player just happened, so the bots wait longer.

        Their roll resolved, or they were hit. :meth:`bot_delay` says how long the bots wait.
        """
        self._about_me = False
        self._news: list[str] = []
        self._hits: list[str] = []
        self.footer_news = False
        """The footer shows news for the player: what their move did, or hits on them.

        It stays until a key or a message replaces it, or until it is old. It is old once the
        player decides in a later turn, or two turns after its own began.
        """
        self._turns_seen = 0
        """Turn headings seen so far."""
        self._news_turn = 0
        """The value of ``_turns_seen`` when the footer's news was made."""
        self._asked: tuple[str, float] = ("", -ENTER_GUARD)
        """The kind of the player's last decision, and when it was first asked."""
        self._awaited: tuple[tuple[int, ...], int] = ((), -1)
        self._awaited_since = clock()

    # -- reading --------------------------------------------------------------------------------

    @property
    def state(self) -> rules.State:
        """The state the screen shows."""
        return self.port.state

    def my_decision(self) -> rules.Decision | None:
        """The pending decision if it is the player's."""
        d = K.decision(self.state)
        return d if d is not None and d.seat == self.port.me else None

    def kept_dice(self) -> frozenset[int]:
        """The dice marked kept.

        A re-roll keeps the marks, since the kept dice were not rolled. So ``r`` again re-rolls
        the same others. A new turn clears the marks. A kept die whose face changes loses its
        mark. A card can change a face.
        """
        s = self.state
        key = (s.turn, s.k, s.dice)
        if key != self._dice_key:
            turn, _, before = self._dice_key
            same = turn == s.turn and len(before) == len(s.dice)
            self.kept = {i for i in self.kept if same and s.dice[i] == before[i]}
            self._dice_key = key
        return frozenset(i for i in self.kept if i < len(s.dice))

    def open_group(self) -> K.Group | None:
        """The group the menu lists, while the player's decision still offers it."""
        g = self.group
        if g is None or self.my_decision() is None:
            return None
        s = self.state
        return g if any(K.group_of(s, a) == g for a in rules.legal_actions(s)) else None

    def readable(self) -> list[tuple[str, int]]:
        """The cards the reader goes through, each with where it is.

        The market's come first, then the Evolutions the player holds or is choosing among, then
        each monster's cards in seat order."""
        s = self.state
        out = [(f"market {slot + 1}", card) for slot, card in enumerate(s.market) if card]
        me = self.port.me
        mine = [card for _, card in rules.hand_of(s, me) if card != rules.HIDDEN]
        if self.my_decision() is not None:
            for a in rules.legal_actions(s):
                if isinstance(a, rules.KeepEvolution):
                    mine.append(rules.known_card(s, me, a.slot))
                elif isinstance(a, rules.PlayEvolution):
                    mine.append(a.card)
        for card in dict.fromkeys(c for c in mine if c != rules.HIDDEN):
            out.append(("your Evolution", card))
        for seat in range(s.n):
            out += [(f"{s.monsters[seat]}'s", card) for card in s.cards[seat]]
        return out

    def read_next(self) -> None:
        """Open the card reader, or show its next card; after the last one it closes."""
        cards = self.readable()
        if not cards:
            self.reading = None
            self.say("no card to read: the market is empty and nobody has a card", error=True)
            return
        at = 0 if self.reading is None else self.reading + 1
        self.reading = at if at < len(cards) else None

    def waiting(self) -> tuple[tuple[int, ...], float]:
        """The seats awaited and for how many seconds."""
        seats = self.port.awaited()
        step = self.moves
        if (seats, step) != self._awaited:
            self._awaited = (seats, step)
            self._awaited_since = self.clock()
        return seats, max(0.0, self.clock() - self._awaited_since)

    def bot_delay(self, base: float) -> float:
        """How long a bot waits before its move.

        It waits ``base``, the command line's delay, and at least the player's pause. Right after
        something about the player, it waits longer, so that they can read it. Then it waits
        :data:`HOLD_FACTOR` pauses, and at least :data:`HOLD_MIN` s.
        """
        pause = max(base, self.comfort.pause)
        if self.hold and self.comfort.pause > 0:
            return max(pause, HOLD_MIN, HOLD_FACTOR * self.comfort.pause)
        return pause

    # -- feedback -------------------------------------------------------------------------------

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` in the footer."""
        self.footer = self.sym.text(text)
        self.footer_error = error
        self.footer_news = False

    def news(self, text: str, hit: bool = False) -> None:
        """Show news for the player in the footer until a key or a message replaces it.

        A hit on them is highlighted. The question whether to quit is not replaced.
        """
        if self.confirm_quit:
            return
        self.say(text, error=hit)
        self.footer_news = True
        self._news_turn = self._turns_seen

    def quit_question(self) -> str:
        """What q asks.

        A player still in the game can resume it. One knocked out keeps the log.
        """
        if self.state.alive[self.port.me]:
            return f"Quit? You can resume later ({program()} resume)."
        return "Leave? You are out of the game; your log is kept."

    def refused(self, reason: Refusal | str) -> None:
        """The game refused what the player did: say it in plain words, and what to do."""
        self.say(plain_refusal(reason), error=True)

    def add_log(self, text: str, style: str = "log") -> None:
        """Append a line to the game log, and follow it unless scrolled back."""
        self.log.append(LogLine(style, self.sym.text(safe_text(text))))

    def who(self, seat: int | None) -> str:
        """A seat as the log names it: ``Monster (player)``, or "somebody" for no such seat."""
        players, monsters = self.port.players(), self.state.monsters
        if seat is None or not 0 <= seat < min(len(monsters), len(players)):
            return "somebody"
        return f"{monsters[seat]} ({players[seat][0]})"

    def add_chat(self, line: ChatLine) -> None:
        """Append a chat line to the game log, its author named, its text made safe.

        It sits among the moves where it was said, and scrolls away with them.
        """
        self.log.append(LogLine("chat", self.sym.text(
            f"<{self.who(line.seat)}> {safe_text(line.text, 500)}")))

    def add_past(self, resumed: Resumed) -> None:
        """Write the game so far into the log, from the log of a resumed game.

        It is written as live play wrote it: the moves, turns, dice and what they did, with the
        chat among them. A line marking the resume follows. Nothing of it is news, so there is no
        footer message and no pause.
        """
        rule = self.sym.rule * 3
        if resumed.history:
            self.add_log(f"{rule} the game so far (from the log) {rule}", "log.turn")
        for u in resumed.history:
            if isinstance(u, MoveApplied):
                if u.told:
                    self.add_log(u.description, "log.warn" if u.kind == "eject" else "log.move")
            elif isinstance(u, Narrated) and u.heading:
                self.add_log(f"{self.sym.rule * 2} {u.text} {self.sym.rule * 2}", "log.turn")
            elif isinstance(u, Narrated):
                self.add_log(f"· {u.text}", event_style(u.event, self.port.me))
            elif isinstance(u, ChatLine):
                self.add_chat(u)
            else:
                self.add_log(f"· {u.description}", "log.dice")
        if resumed.catching_up:
            self.add_log(f"{rule} resumed: first, what the others did while you were away {rule}",
                         "title")
        else:
            self.add_log(f"{rule} resumed: the game goes on from here {rule}", "title")

    def on_caught_up(self, u: CaughtUp) -> None:
        """The resumed seat goes on: the game goes on from here."""
        rule = self.sym.rule * 3
        self.add_log(f"{rule} {safe_text(u.text)}: the game goes on from here {rule}", "title")

    def on_updates(self, updates: list[Update]) -> None:
        """Take in what happened in the game."""
        tell(self, updates)

    def on_move_applied(self, u: MoveApplied) -> None:
        """A move: the player's own news starts over, and a stale status goes."""
        self.moves += 1
        me = self.port.me
        self._about_me = u.seat == me and u.kind == "move"
        self._news = []
        if u.seat != me:
            self.hold = False  # the pause after the player's news is over
            if not self.footer_news and not self.eject_asked and not self.confirm_quit:
                self.say("")  # a status or refusal about the decision just made is old
        if u.told:
            self.add_log(u.description, "log.warn" if u.kind == "eject" else "log.move")

    def on_narrated(self, u: Narrated) -> None:
        """A turn's heading or an event: logged, and told in the footer if about the player."""
        me = self.port.me
        if u.heading:
            self.add_log(f"{self.sym.rule * 2} {u.text} {self.sym.rule * 2}", "log.turn")
            self._about_me, self._news, self._hits = False, [], []
            self._turns_seen += 1
            mine = isinstance(u.event, rules.TurnBegan) and u.event.seat == me
            old_news = self.footer_news and not self.footer_error  # not a hit on the player
            stale = self.footer_news and self._turns_seen - self._news_turn >= 2
            if ((not self.footer_news or (mine and old_news) or stale)
                    and not self.confirm_quit):
                self.say("")  # a message about the last turn or the player's own is old now
            return
        hit = hurts(u.event, me)
        if hit:
            self.hold = True
            self._hits.append(u.text)
            self.news("; ".join(self._hits), hit=True)
        elif self._about_me:
            self.hold = True
            if not isinstance(u.event, rules.DiceKept):  # the dice are on screen
                self._news.append(self._short(u.text))
            if self._news and not self._hits:
                self.news("you: " + "; ".join(self._news))
        self.add_log(f"· {u.text}", event_style(u.event, me))

    def _short(self, text: str) -> str:
        """An event about the player without their monster's name in front, for ``you:`` news.

        ``Alienoid's Stretchy takes effect`` becomes ``your Stretchy takes effect``."""
        name = self.state.monsters[self.port.me]
        if text.startswith(f"{name}'s "):
            return "your " + text.removeprefix(f"{name}'s ")
        return text.removeprefix(f"{name} ")

    def on_dice_rolled(self, u: DiceRolled) -> None:
        """Dice came up: logged."""
        self.add_log(f"· {u.description}", "log.dice")

    def on_chat_line(self, u: ChatLine) -> None:
        """A chat line: logged where it was said."""
        self.add_chat(u)

    def on_violation_seen(self, u: ViolationSeen) -> None:
        """A seat broke the rules: logged as a warning."""
        self.add_log(f"! {self.who(u.seat)} broke the rules: {u.description}", "log.warn")

    def on_frame_refused(self, u: FrameRefused) -> None:
        """A peer's message was refused: logged as a warning."""
        self.add_log(f"! refused a message from {self.who(u.sender)}: {u.reason}", "log.warn")

    def on_waiting(self, u: Waiting) -> None:
        """The game waits: logged as a warning."""
        self.add_log(f"… waiting for {', '.join(self.who(s) for s in u.seats)}", "log.warn")

    def on_eject_asked(self, u: EjectAsked) -> None:
        """The player may vote to eject. The status line says how."""
        self.eject_asked = u.seats
        self.say(f"{', '.join(self.who(s) for s in u.seats)} did not answer in time: press e "
                 "to vote to eject (every other player must agree)", error=True)

    def on_notice(self, u: Notice) -> None:
        """A fact about this process: logged as a warning."""
        self.add_log(f"! {u.text}", "log.warn")

    def on_link_changed(self, u: LinkChanged) -> None:
        """A link came up or went down: the table marks it and the log says it."""
        if u.up:
            self.links_down.discard(u.seat)
        else:
            self.links_down.add(u.seat)
        self.add_log(f"~ {self.who(u.seat)} {'is connected' if u.up else 'is gone'}",
                     "log" if u.up else "log.warn")

    def on_resumed(self, u: Resumed) -> None:
        """A resumed game: the log opens with the game so far."""
        self.add_past(u)

    def on_game_over(self, u: GameOver) -> None:
        """The end: the end screen, with the result for the player."""
        stats = self.end_stats() if self.end_stats is not None else []
        self.end = EndInfo(result_for(u, self.port.me, self.who), self.log_path, stats)
        self.add_log(f"Game over. {safe_text(u.summary)}", "title")
        self._open("end")

    def on_your_turn(self, u: YourTurn) -> None:
        """The player decides: a vote question is over, and standing orders may answer."""
        d = self.my_decision()
        if d is not None and d.kind != self._asked[0]:
            self._asked = (d.kind, self.clock())
        self.eject_asked = ()
        if self.footer_news and self._news_turn < self._turns_seen and not self.confirm_quit:
            self.say("")  # news from an earlier turn is old at the player's next decision
        self.auto_decide()

    def auto_decide(self) -> bool:
        """Apply the player's standing orders to a decision that is theirs; True if one did."""
        d = self.my_decision()
        if d is None:
            return False
        s = self.state
        legal = rules.legal_actions(s)
        hp = s.hp[self.port.me]
        c = self.comfort
        action: rules.Action | None = None
        why = ""
        if d.kind == "yield":
            if c.auto_leave is not None and hp <= c.auto_leave and rules.YIELD in legal:
                action, why = rules.YIELD, f"auto-leave: {hp}♥ is at or under {c.auto_leave}♥"
            elif c.auto_stay is not None and hp >= c.auto_stay and rules.STAY in legal:
                action, why = rules.STAY, f"auto-stay: {hp}♥ is at or over {c.auto_stay}♥"
        elif d.kind == "buy" and self.skip_buy_turn == s.turn and rules.DONE in legal:
            action, why = rules.DONE, "skipped buying this turn"
        if action is None:
            return False
        self.say(why)
        self.port.submit(action)
        return True

    # -- keys -----------------------------------------------------------------------------------

    def press(self, key: str) -> None:
        """Handle one key, by prompt_toolkit's name for it: ``"a"``, ``"enter"``, ``"c-c"``..."""
        if key == "c-c":
            self.interrupted = True
            self.quit()
            return
        if self.confirm_quit:
            self.confirm_quit = False
            if key in ("y", "q"):
                self.quit()
            else:
                self.say("not quitting")
            return
        handler = {"help": self._help_key, "cards": self._cards_key, "options": self._options_key,
                   "end": self._end_key}.get(self.screen, self._game_key)
        handler(key)

    def click(self, key: str) -> None:
        """A click on something standing for ``key`` does what the key does.

        It may be a die, a card or a footer key.
        """
        self.press(key)
        self.on_click()

    def quit(self) -> None:
        """Stop here and leave. The game can be resumed."""
        if not self.stopped and self.end is None:
            self.stopped = True
            self.port.quit()
        self.exit_requested = True

    def _open(self, screen: str) -> None:
        """Show ``screen`` from its top."""
        self.screen = screen
        self.page_scroll = 0

    def _back(self) -> None:
        self._open("game" if self.end is None else "end")

    def _scroll_key(self, key: str) -> bool:
        """PgUp, PgDn, Up and Down scroll the help or the end page; True if ``key`` was one."""
        step = SCROLL_STEPS.get(key)
        if step is None:
            return False
        self.page_scroll = max(0, self.page_scroll + step)
        return True

    def _help_key(self, key: str) -> None:
        if self._scroll_key(key):
            return
        if key == "k":
            self.screen = "cards"
        elif key in ("?", "escape", "q", "enter"):
            self._back()

    def _cards_key(self, key: str) -> None:
        if key in ("escape", "enter"):
            self.card_scroll = 0
            self._back()
        elif key in SCROLL_STEPS:
            self.card_scroll = max(0, self.card_scroll + SCROLL_STEPS[key])

    def _end_key(self, key: str) -> None:
        if self._scroll_key(key):
            return
        if key == "q":  # Only q. A player still pressing Enter must get to read the result.
            self.exit_requested = True
        elif key == "?":
            self._open("help")

    def _options_key(self, key: str) -> None:
        c = self.comfort
        if key in ("escape", "o", "enter", "q"):
            self.screen = "game"
        elif key in ("1", "2"):
            c.auto_leave = _step(c.auto_leave, -1 if key == "1" else 1, 1, AUTO_LEAVE_MAX)
        elif key in ("3", "4"):
            c.auto_stay = _step(c.auto_stay, -1 if key == "3" else 1, 1, AUTO_STAY_MAX)
        elif key in ("5", "6"):
            c.pause = max(0.0, min(5.0, round(c.pause + (-0.2 if key == "5" else 0.2), 1)))
        elif key == "7":
            c.ask_evolutions = ASK_EVOLUTIONS[(ASK_EVOLUTIONS.index(c.ask_evolutions) + 1) % 3]
            self.evolutions.ask = c.ask_evolutions

    def _hint(self, s: rules.State) -> None:
        """Ask for the hint at ``s``. It is worked out aside, as the hard bot thinks, and said
        if the game is still at ``s`` when it comes."""
        me = self.port.me
        self.say(THINKING)

        def told(text: str) -> None:
            if self.state is s:
                self.say(text)
            elif self.footer == self.sym.text(THINKING):
                self.say("")

        self.port.aside(lambda: hint(s, me), told)

    def _game_key(self, key: str) -> None:
        s = self.state
        self.footer_error = False
        group = self.open_group()
        if key in K.SHADOWED and self.my_decision() is not None and any(
                c.key == key for c in K.menu_choices(s, group)):
            self._decision_key(key)  # a question's letter comes before the command key
        elif key == "escape" and group is not None:
            self.group = None
            self.say("")
        elif key == "i":
            self.read_next()
        elif key == "h":
            self._hint(s)
        elif key == "escape" and self.reading is not None:
            self.reading = None
        elif key == "?":
            self._open("help")
        elif key == "k":
            self.screen = "cards"
        elif key == "o":
            self.screen = "options"
        elif key == "q":
            self.confirm_quit = True
            self.say(f"{self.quit_question()} y: quit, any other key: stay")
        elif key == "c":
            self.chatting = True
        elif key == "pageup":
            self.scroll = min(self.scroll + 5, max(0, len(self.log) - 1))
        elif key == "pagedown":
            self.scroll = max(0, self.scroll - 5)
        elif key == "e":
            if self.eject_asked:
                self.port.vote_eject()
                self.eject_asked = ()
                self.say("you voted to eject the absent players")
            else:
                self.say("nobody is overdue: e is for a player gone past the deadline", error=True)
        elif key == "n":
            if self.skip_buy_turn == s.turn:
                self.skip_buy_turn = -1
                self.say("you will be asked to buy this turn")
            else:
                self.skip_buy_turn = s.turn
                self.say("skipping buying this turn")
                self.auto_decide()
        else:
            self._decision_key(key)

    def _decision_key(self, key: str) -> None:
        s = self.state
        d = self.my_decision()
        kept = self.kept_dice()
        if d is None:
            self.say(K.explain(s, key, kept, self.port.me), error=True)
            return
        if key == "enter" and self.clock() - self._asked[1] < ENTER_GUARD:
            # An Enter meant for the last question: the dice resolved on their own, say.
            self.say(f"Enter ignored: you are asked to {K.asked(d.kind)} now; press it again "
                     "if you mean it", error=True)
            self._asked = (d.kind, -ENTER_GUARD)
            return
        if K.may_reroll(s) and key.isdigit() and 1 <= int(key) <= len(s.dice):
            i = int(key) - 1
            if i in kept:
                self.kept.discard(i)
            else:
                self.kept.add(i)
            self.say("")  # the marks show on the dice and the status line
            return
        if d.kind == "roll" and key == " ":
            self.say("press a die's digit to keep it, r to re-roll the others, Enter to resolve")
            return
        group = self.open_group()
        opens = next((c.opens for c in K.choices(s, group) if c.key == key and c.opens), None)
        if opens is not None:
            self.group = opens
            self.say("pick the face with its letter, or Esc to choose again")
            return
        action = K.action_for(s, key, kept, group)
        if action is None:
            self.say(K.explain(s, key, kept, self.port.me), error=True)
            return
        self.group = None  # the next question starts from its own first list
        self.say(rules.describe_action(s, action))
        self.port.submit(action)

    def send_chat(self, text: str) -> None:
        """Send what the player typed in the chat line."""
        self.chatting = False
        text = text.strip()
        if text:
            self.port.chat(text)


def _step(value: int | None, delta: int, low: int, high: int) -> int | None:
    """Move a threshold by ``delta`` round the cycle off, ``low`` .. ``high``, off.

    Off is None. Up from off gives ``low``, down from off gives ``high``. Past either end it is
    off again.
    """
    if value is None:
        return low if delta > 0 else high
    value += delta
    return value if low <= value <= high else None
