"""The plain line interface: a view over a game session for terminals, scripts and screen readers.

Every update is one line of plain words. A move is said once. Its own description is printed only
when its events do not already say it. ``-- turn N: Monster --`` opens each turn.

When the user's seat must decide, the view prints the state and the legal actions, numbered. The
state is Tokyo, each monster's ★ ♥ ⚡ and cards, the dice numbered from 1 with their faces and keep
marks, and the market.

A typed line may be a number from that list. It may be the words a player reads, with dice counted
from 1 as shown. These are the full screen's keys where a line can take them:

* ``keep 1 3`` or ``keep 1,3`` keeps those dice and re-rolls the others. ``reroll 2,4``
  re-rolls those dice. ``r`` re-rolls the dice not kept, those marked ``▲``, or ``^`` in ASCII.
* An empty line resolves the dice, is done buying or passes, as Enter does in the full screen.
* ``y`` yields Tokyo, ``s`` stays, ``w`` sweeps the market.
* ``stop``, ``yield``, ``stay``, ``sweep``, ``done``, ``pass`` and ``buy CARD`` also work.
  ``buy 2`` buys the card in market slot 2.

The commands are:

* ``say TEXT`` chats.
* ``state`` prints the state.
* ``eject`` votes to eject, after the hard deadline.
* ``help`` prints the help.
* ``quit`` stops here. ``kotp2p resume`` continues.

A refused line says why. Text from peers, such as names and chat, is made terminal-safe before it
is printed.
"""

from __future__ import annotations

from typing import TextIO

from kotp2p import rules
from kotp2p.bots import hint
from kotp2p.net.session import (
    CaughtUp,
    Chat,
    ChatLine,
    Command,
    DiceRolled,
    EjectAsked,
    FrameRefused,
    GameOver,
    LinkChanged,
    MoveApplied,
    Narrated,
    Notice,
    Quit,
    Refused,
    Resumed,
    Session,
    Submit,
    Update,
    ViolationSeen,
    VoteEject,
    Waiting,
    YourTurn,
    recent_turns,
    tell,
)
from kotp2p.net.wire import safe_text
from kotp2p.ui import keys as K
from kotp2p.ui.hands import ASK_EVOLUTIONS, ASK_WORDS, EvolutionAsk, hand_words
from kotp2p.ui.model import result_for
from kotp2p.ui.program import program
from kotp2p.ui.stats import session_stats, stats_legend, stats_rows
from kotp2p.ui.symbols import UNICODE, Symbols, ascii_text

RESUME_TURNS = 10
"""Turns of a resumed game's history printed before it goes on. ``kotp2p replay`` shows all."""

HELP = ("Type the number of an action, or its words. Dice count from 1 as shown: keep 1 3 "
        "(or keep 1,3) keeps dice 1 and 3 and re-rolls the others, reroll 2 4 re-rolls dice 2 "
        "and 4, r re-rolls the dice not kept (marked ▲). An empty line resolves the dice, is "
        "done buying or passes. y yields Tokyo, s stays. buy CARD or buy 2 (market slot 2), "
        "w sweeps the market. Also: stop, yield, stay, sweep, done, pass. Commands: say TEXT "
        "(chat), state, eject (when asked), ask always|playable|never (when to be asked about "
        "Evolutions: only with a card playable now, by default), hint (what the hard bot would "
        "do in your place, and why), help, quit (stop here; "
        "`{program} resume` continues).")

KEYS = {"": "enter", "r": "r", "y": "y", "s": "s", "w": "w"}
"""The full screen's keys a typed line may be, each with its key's name."""
WORDS = ("stop", "yield", "stay", "sweep", "done", "pass", "buy", "use")
"""The engine's action words a player types, beside the numbers and :data:`KEYS`."""


def _safe(text: str) -> str:
    """Peer text made terminal-safe, long enough for a chat line.

    Peer text is chat, or narration that quotes names.
    """
    return safe_text(text, 1000)


def face(value: int, symbols: Symbols = UNICODE) -> str:
    """A die face as the game shows it: ``1 2 3 ⚡ ♥ ✸``, or in words for ASCII."""
    glyph = rules.SYMBOLS.faces[value]
    return ascii_text(glyph) if symbols.ascii else glyph


def format_dice(state: rules.State, kept: frozenset[int], symbols: Symbols = UNICODE) -> str:
    """The dice counted from 1, each with its face: ``1:✸ 2:3▲``.

    The board's keep mark, ``▲`` or ``^`` in ASCII, marks a die kept from the previous roll.
    It is not ``*``, the ASCII star.
    """
    if not state.dice:
        return "no dice"
    return " ".join(f"{i + 1}:{face(d, symbols)}{symbols.kept if i in kept else ''}"
                    for i, d in enumerate(state.dice))


def format_state(state: rules.State, names: tuple[str, ...], kept: frozenset[int] = frozenset(),
                 me: int | None = None, symbols: Symbols = UNICODE) -> list[str]:
    """Lines showing Tokyo, each monster, the dice and the market."""
    city = names[state.city] if state.city >= 0 else "empty"
    lines = [f"Turn {state.turn}. Tokyo City: {city}"
             + (f"; Tokyo Bay: {names[state.bay] if state.bay >= 0 else 'empty'}"
                if state.n >= 5 else "")]
    for seat in range(state.n):
        mark = ">" if seat == state.active else " "
        you = " (you)" if seat == me else ""
        if not state.alive[seat]:
            lines.append(f"{mark} {names[seat]}{you}: out of the game")
            continue
        cards = ", ".join(rules.card_name(c) for c in state.cards[seat]) or "no cards"
        hand = hand_words(state, seat, me)
        cards += f"; {hand}" if hand else ""
        marks = "".join(f", {what} {n}" for what, n in (("poison", state.poison[seat]),
                                                          ("shrink", state.shrink[seat])) if n)
        lines.append(f"{mark} {names[seat]}{you}: ★{state.stars[seat]} ♥{state.hp[seat]}"
                     f"/{rules.max_hp(state, seat)} ⚡{state.energy[seat]}{marks}; {cards}")
    if state.dice:
        lines.append(f"Dice: {format_dice(state, kept, symbols)}; rolls left {state.rolls_left}")
    market = ", ".join(f"{rules.card_name(c)} ({rules.CARDS[c].cost}⚡)" for c in state.market
                       if c in rules.CARDS)  # an empty slot holds no card: the deck ran out
    lines.append(f"Market: {market or 'empty'}")
    return lines


def listed_actions(state: rules.State) -> list[rules.Action]:
    """The legal actions the list numbers.

    Every one is listed, except at a roll decision. That lists only stopping and re-rolling
    everything. Any other re-roll is typed as words.
    """
    legal = list(rules.legal_actions(state))
    if isinstance(state.pending, rules.Decision) and state.pending.kind == "roll":
        short = [a for a in legal if not isinstance(a, rules.Reroll)
                 or len(a.dice) == len(state.dice)]
        return short
    return legal


def key_of(state: rules.State, action: rules.Action) -> str:
    """The full screen's key for ``action`` that a line may also be, as typed, or ``""``.

    Enter is said as ``Enter``. Others are ``y``, ``s`` and ``w``.
    """
    for c in K.choices(state):
        if c.action == action and c.key in KEYS.values() and c.key != "r":
            return "Enter" if c.key == "enter" else c.key
    return ""


def action_line(state: rules.State, action: rules.Action) -> str:
    """A listed action: the words to type for it, then what it does.

    A card used on a die is said in a player's words alone, the die counted from 1 with its face.
    Its engine words count dice from 0, so its number is what to type. A re-roll's dice are
    counted from 1. A full screen key that does it too follows its words: ``stop (or Enter)``.
    """
    said = rules.describe_action(state, action)
    label = K.menu_label(state, action, said)
    if label != said:
        return label
    if isinstance(action, rules.Reroll):
        words = "reroll " + ",".join(str(i + 1) for i in action.dice)
    else:
        words = rules.format_action(state, action)
    key = key_of(state, action)
    return f"{words}{f' (or {key})' if key else ''}: {said}"


def expected(state: rules.State) -> str:
    """What a player may type now, for a refusal."""
    n = len(listed_actions(state))
    d = K.decision(state)
    words = [f"a number from 1 to {n}"] if n else []
    if K.may_reroll(state):
        words += [f"keep or reroll with dice from 1 to {len(state.dice)}",
                  "r (re-roll the dice not kept)"]
    for c in K.choices(state):
        if c.key in KEYS.values():
            words.append(f"{'an empty line' if c.key == 'enter' else c.key} ({c.label})")
    if d is not None and d.kind == "buy":
        words.append("buy CARD or buy SLOT")
    return f"type {', '.join(words)}, or help"


def _dice(state: rules.State, word: str, rest: str) -> set[int]:
    """The dice after ``keep`` or ``reroll``, counted from 1, as the engine counts them, from 0.

    :raises rules.IllegalAction: no dice, or dice that are not there.
    """
    n = len(state.dice)
    try:
        dice = [int(x) for x in rest.replace(",", " ").split()]
    except ValueError:
        raise rules.IllegalAction(f"expected dice from 1 to {n} after {word}, found {rest!r}"
                                  ) from None
    if not dice and word == "reroll":
        raise rules.IllegalAction(f"expected dice from 1 to {n} after reroll")
    for i in dice:
        if not 1 <= i <= n:
            raise rules.IllegalAction(f"there is no die {i}: the dice are 1 to {n}")
    return {i - 1 for i in dice}


def _key_refusal(state: rules.State, typed: str) -> str:
    """Why a key typed as a line does nothing now, and what would."""
    d = K.decision(state)
    if typed in ("y", "s") and (d is None or d.kind != "yield"):
        return f"nobody asks you to yield Tokyo now; {expected(state)}"
    if typed == "w" and d is not None and d.kind == "buy":
        return (f"sweeping costs 2⚡ and you have {state.energy[d.seat]}⚡; "
                f"{expected(state)}")
    what = "an empty line" if not typed else repr(typed)
    return f"{what} does nothing now; {expected(state)}"


def parse_line(state: rules.State, text: str, kept: frozenset[int] = frozenset()) -> rules.Action:
    """The action a typed line names.

    The line is a number from :func:`listed_actions`, a key of :data:`KEYS`, ``keep`` or
    ``reroll`` with dice counted from 1, ``buy`` with a market slot, or one of :data:`WORDS` as
    ``rules.parse_action`` reads them. ``kept`` are the dice marked kept, which ``r`` does not
    re-roll.

    :raises rules.IllegalAction: words that name no legal action now, saying what was expected.
    """
    text = text.strip()
    listed = listed_actions(state)
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= len(listed):
            raise rules.IllegalAction(f"expected a number from 1 to {len(listed)}, found {n}")
        return listed[n - 1]
    if text in KEYS:
        key_action = K.action_for(state, KEYS[text], kept)
        if key_action is None:
            raise rules.IllegalAction(_key_refusal(state, text))
        return key_action
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    action: rules.Action
    if word in ("keep", "reroll"):
        dice = _dice(state, word, rest)
        action = rules.Reroll(tuple(i for i in range(len(state.dice))
                                    if (i in dice) == (word == "reroll")))
    elif word == "buy" and rest.isdigit():
        slot = int(rest)
        if not 1 <= slot <= len(state.market) or not state.market[slot - 1]:
            raise rules.IllegalAction(f"market slot {slot} holds no card")
        action = rules.Buy(state.market[slot - 1])
    elif word in WORDS:
        action = rules.parse_action(state, text)
    else:
        raise rules.IllegalAction(f"{text!r} is not a choice; {expected(state)}")
    if action not in rules.legal_actions(state):
        raise rules.IllegalAction(f"{text!r} is not allowed now; {expected(state)}")
    return action


class PlainView:
    """Prints a session's updates and turns typed lines into its inputs."""

    def __init__(self, session: Session, out: TextIO, symbols: Symbols = UNICODE,
                 ask: str = "playable") -> None:
        self.session = session
        self.out = out
        self.symbols = symbols
        self.evolutions = EvolutionAsk(ask)
        """When the user is asked about Evolutions; the session answers for them otherwise."""
        mine = session.seats[session.me]
        if mine.decide is None:
            mine.standing = self.evolutions
        self._kept: frozenset[int] = frozenset()
        self._kept_turn = -1

    def say(self, line: str) -> None:
        """Print one line."""
        print(line, file=self.out, flush=True)

    def show(self, updates: list[Update]) -> None:
        """Print each update in plain words; at the user's decision, the state and the actions."""
        tell(self, updates)

    def _who(self, seat: int | None) -> str:
        """The player and monster at ``seat``; "somebody" for no seat."""
        return "somebody" if seat is None else self.session.names()[seat]

    def on_move_applied(self, u: MoveApplied) -> None:
        """A move, unless its events already told it."""
        self._track_keep(u)
        if u.told:
            self.say(f"* {_safe(u.description)}")

    def on_narrated(self, u: Narrated) -> None:
        """A turn's heading or an event."""
        self.say(f"-- {_safe(u.text)} --" if u.heading else f"  {_safe(u.text)}")

    def on_dice_rolled(self, u: DiceRolled) -> None:
        """The dice as they came up."""
        self.say(f"  {_safe(u.description)}")

    def on_chat_line(self, u: ChatLine) -> None:
        """A chat line, after its author's name."""
        self.say(f"<{self._who(u.seat)}> {_safe(u.text)}")

    def on_violation_seen(self, u: ViolationSeen) -> None:
        """A seat broke the rules."""
        self.say(f"! {self._who(u.seat)} broke the rules: {_safe(u.description)}")

    def on_frame_refused(self, u: FrameRefused) -> None:
        """A peer's message was refused."""
        self.say(f"! refused a message from {self._who(u.sender)}: {_safe(u.reason)}")

    def on_waiting(self, u: Waiting) -> None:
        """Whom the game waits for."""
        self.say(f"… waiting for {', '.join(self._who(x) for x in u.seats)}")

    def on_eject_asked(self, u: EjectAsked) -> None:
        """How to vote out the seats that hold the game up."""
        who = ", ".join(self._who(x) for x in u.seats)
        self.say(f"? {who} did not answer in time. Type `eject` to vote them out "
                 "(only if every other player agrees), or keep waiting.")

    def on_notice(self, u: Notice) -> None:
        """A fact about this process, as it is."""
        self.say(_safe(u.text))

    def on_link_changed(self, u: LinkChanged) -> None:
        """A link came up or went down."""
        self.say(f"~ link to {self._who(u.seat)} {'up' if u.up else 'down'}")

    def on_resumed(self, u: Resumed) -> None:
        """The game so far."""
        self.show_past(u)

    def on_game_over(self, u: GameOver) -> None:
        """The result for the user, then each monster's figures."""
        self.say(f"Game over. {result_for(u, self.session.me, self._who)}")
        for line in stats_rows(session_stats(self.session)):
            self.say(line)
        self.say("  " + stats_legend())

    def on_your_turn(self, u: YourTurn) -> None:
        """The state and the actions to choose from."""
        self.show_decision()

    def show_past(self, resumed: Resumed) -> None:
        """Print the game so far, from the log of a resumed game.

        Its last :data:`RESUME_TURNS` turns are told as live play told them. A line marking the
        resume follows.
        """
        left_out, past = recent_turns(list(resumed.history), RESUME_TURNS)
        if resumed.history:
            self.say("== the game so far (from the log) ==")
        if left_out:
            self.say(f"({left_out} earlier turn{'s' if left_out > 1 else ''} left out: "
                     f"`{program()} replay` shows the whole game)")
        self.show(list(past))
        if resumed.catching_up:
            self.say("== resumed: first, what the others did while this seat was away ==")
        else:
            self.say("== resumed: the game goes on from here ==")

    def on_caught_up(self, u: CaughtUp) -> None:
        """The resumed seat goes on."""
        self.say(f"== {safe_text(u.text)}: the game goes on from here ==")

    def _track_keep(self, u: MoveApplied) -> None:
        r = self.session.protocol.replica
        if u.kind != "move" or u.step >= len(r.entries):
            return
        entry = r.entries[u.step]
        try:
            action = rules.action_from_wire(entry.action)
        except ValueError:
            return
        if isinstance(action, rules.Reroll):
            before = entry.before
            self._kept = frozenset(i for i in range(len(before.dice)) if i not in action.dice)
            self._kept_turn = before.turn

    def kept(self) -> frozenset[int]:
        """The dice kept by the user's last re-roll this turn. ``r`` re-rolls the others."""
        state = self.session.state
        if state.turn != self._kept_turn:
            return frozenset()
        return frozenset(i for i in self._kept if i < len(state.dice))

    def show_decision(self) -> None:
        """The state, then the numbered actions and a prompt."""
        state = self.session.state
        monsters = tuple(_safe(m) for m in state.monsters)
        for line in format_state(state, monsters, self.kept(), self.session.me, self.symbols):
            self.say(line)
        pending = state.pending
        kind = pending.kind if isinstance(pending, rules.Decision) else "?"
        self.say(f"Your decision ({K.asked(kind)}):")
        for i, a in enumerate(listed_actions(state), 1):
            self.say(f"  {i}. {action_line(state, a)}")
        if K.may_reroll(state):
            self.say("  or type `keep 1 3` to keep dice 1 and 3 and re-roll the others, "
                     "`reroll 2 4` to re-roll dice 2 and 4, `r` to re-roll the dice not kept (*)")
        self.say("> ")

    def on_line(self, line: str, now: float) -> bool:
        """Handle one typed line; False to stop here."""
        s = self.session
        text = line.strip()
        word, _, rest = text.partition(" ")
        try:
            if not text and not s.my_turn:
                return True
            if word in ("quit", "exit"):
                s.perform(Quit(), now)
                self.say(f"Stopped. `{program()} resume` continues this game.")
                return False
            if word == "help":
                self.say(HELP.format(program=program()))
            elif word == "state":
                for ln in format_state(s.state, tuple(_safe(m) for m in s.state.monsters),
                                       me=s.me, symbols=self.symbols):
                    self.say(ln)
            elif word == "say":
                self._perform(Chat(rest), now)
            elif word == "ask":
                if rest.strip().lower() not in ASK_EVOLUTIONS:
                    self.say("refused: expected ask always, ask playable (only with a card "
                             "playable now) or ask never")
                else:
                    self.evolutions.ask = rest.strip().lower()
                    self.say(f"Evolutions: asked {ASK_WORDS[self.evolutions.ask]}")
            elif word == "hint":
                self.say(hint(s.state, s.me))
            elif word == "eject":
                if self._perform(VoteEject(), now):
                    self.say("you voted to eject the absent players")
            elif not s.my_turn:
                self.say(f"refused: it is not your decision now (waiting for "
                         f"{', '.join(self._who(x) for x in s.awaited()[0]) or 'nobody'})")
            else:
                action = parse_line(s.state, text, self.kept())
                self._perform(Submit(rules.action_to_wire(action)), now)
        except rules.IllegalAction as exc:
            self.say(f"refused: {exc}")
            if s.my_turn:
                self.say("> ")
        return True

    def _perform(self, command: Command, now: float) -> bool:
        """Hand ``command`` to the session, and say a refusal. True when it was done."""
        result = self.session.perform(command, now)
        if isinstance(result, Refused):
            self.say(f"refused: {result.refusal.text}")
            return False
        return True

    def on_end_of_input(self, now: float) -> bool:
        """No more input. A bot-played seat goes on. A human seat stops here."""
        if self.session.seats[self.session.me].decide is not None:
            return True
        self.session.quit()
        self.say(f"Input closed: stopped. `{program()} resume` continues this game.")
        return False
