"""The King of Tokyo adapter: the real rules behind the engine interface.

It puts :mod:`kotp2p.rules` behind :class:`~kotp2p.net.trust.engine_interface.GameEngine`.
Options travel as ``[two_player_variant]``, which is None, true or false, followed by the list
of expansions when any is on: ``[None, ["halloween", "power-up"]]``."""

from __future__ import annotations

from collections.abc import Sequence

from kotp2p import rules
from kotp2p.net.trust.engine_interface import Chance, DeckCall, Pending, Poll, State, Turn
from kotp2p.net.wire import Value

HALLOWEEN = "halloween"
"""The name options give the Halloween expansion."""
POWER_UP = "power-up"
"""The name options give the Power Up! expansion."""
EXPANSIONS = (HALLOWEEN, POWER_UP)
"""The expansions, in the order options list them."""


def game_options(two_player_variant: bool | None = None, halloween: bool = False,
                 power_up: bool = False) -> Value:
    """Options in wire form: ``[variant]``, with the expansions' names after it when any is on.

    A base game's options are ``[variant]`` alone, as they were before expansions came."""
    names: list[Value] = [name for name, on in zip(EXPANSIONS, (halloween, power_up), strict=True)
                          if on]
    return [two_player_variant, names] if names else [two_player_variant]


def rules_options(options: Value) -> rules.Options:
    """The engine's options for options in wire form.

    :raises ValueError: for anything but the one form :func:`game_options` writes."""
    if isinstance(options, list) and options and options[0] in (None, True, False):
        if len(options) == 1:
            return rules.Options(two_player_variant=options[0])
        names = options[1]
        if (len(options) == 2 and isinstance(names, list) and names
                and all(isinstance(x, str) for x in names)
                and names == [x for x in EXPANSIONS if x in names]):
            return rules.Options(two_player_variant=options[0], halloween=HALLOWEEN in names,
                                 power_up=POWER_UP in names)
    raise ValueError(f"options: expected [null|true|false] or [null|true|false, expansions], "
                     f"the expansions a list of {list(EXPANSIONS)} in that order, found "
                     f"{options!r}")


_PASS = rules.action_to_wire(rules.PASS)



class RulesEngine:
    """King of Tokyo as the trust core drives it."""

    @property
    def engine_id(self) -> str:
        """``rules.ENGINE_ID``: package version and card-table hash."""
        return rules.ENGINE_ID

    def engine_id_for(self, options: Value) -> str:
        """The engine id of a game with these options: expansions have ids of their own.

        :raises ValueError: for options this engine cannot play."""
        opts = rules_options(options)
        return rules.ENGINE_IDS[opts.halloween, opts.power_up]

    def default_options(self, seats: int) -> Value:
        """Default options: the 2-player variant follows the seat count."""
        return [None]

    def start(self, monsters: Sequence[str], options: Value) -> State:
        """The first state. :raises ValueError: bad monsters or options."""
        setup = rules.Setup(monsters=tuple(monsters), options=rules_options(options))
        return rules.new_game(setup)

    def pending(self, state: State) -> Pending:
        """Whose decision or which random event is pending."""
        p = state.pending
        if isinstance(p, rules.RandomRequest):
            if p.private_to >= 0 and p.purpose == rules.DRAW:
                slots = rules.drawn_slots(state)
                if slots:
                    return Chance(tuple(p.bounds), p.index, p.private_to, slots)
            return Chance(tuple(p.bounds), p.index, p.private_to)
        if isinstance(p, rules.Decision):
            call = rules.deck_call(state) if p.kind == "evodeck" else None
            if call is not None:
                _, first, cards, slots = call
                return Turn(p.seat, DeckCall(first, cards, slots, _PASS))
            if p.kind == "evolution":
                return Poll(rules.window_seats(state))
            return Turn(p.seat)
        return None

    def apply_move(self, state: State, action: Value) -> State:
        """Apply an action given in wire form. :raises ValueError: malformed or illegal."""
        act = rules.action_for(state, action)
        if isinstance(act, rules.RandomResult):
            raise rules.IllegalAction("a random result cannot be a player's move")
        return rules.apply(state, act)

    def apply_random(self, state: State, values: tuple[int, ...]) -> State:
        """Answer the pending random event."""
        return rules.apply(state, rules.RandomResult(values=values))

    def poll_view(self, state: State, seat: int) -> State:
        """The window with the seats before ``seat`` passing: ``seat``'s question pending."""
        while state.pending is not None and state.pending.seat != seat:
            state = rules.apply(state, rules.PASS)
        return state

    def apply_poll(self, state: State, answers: Sequence[Value]) -> State:
        """Every seat's answer to the window, in order. :raises ValueError: one is refused."""
        for action in answers:
            state = self.apply_move(state, action)
        return state

    def apply_hidden(self, state: State) -> State:
        """Answer a private event with HIDDEN values."""
        n = len(state.pending.bounds)
        return rules.apply(state, rules.RandomResult(values=(rules.HIDDEN,) * n))

    def slot_content(self, state: State, values: tuple[int, ...]) -> int:
        """The content the private event gives its slot."""
        k = state.pending.index
        content: int = rules.apply(state, rules.RandomResult(values=values)).slots[k]
        return content

    def open_slot(self, state: State, slot: int, content: int) -> State:
        """Fill a checked hidden slot, if the state still holds it hidden.

        A Made in a Lab peek that was passed is dropped at once, so there is nothing to fill."""
        if state.slots.get(slot) != rules.HIDDEN:
            return state
        return rules.open_slot(state, slot, content)

    def fill_deck(self, state: State, seat: int, slot: int, card: int) -> State:
        """Fill an Evolution slot of ``seat``, if this replica holds it hidden."""
        key = rules.slot_key(seat, slot)
        if state.slots.get(key) != rules.HIDDEN:
            return state
        return rules.open_slot(state, key, card)

    def played_slots(self, state: State, action: Value) -> tuple[int, ...]:
        """The Evolution slot a ``PlayEvolution`` opens; none for any other action."""
        try:
            act = rules.action_from_wire(action)
        except ValueError:
            return ()
        return rules.played_slots(state, act)

    def public_view(self, state: State) -> State:
        """The state with every slot hidden, made through the public wire form."""
        if all(v == rules.HIDDEN for v in state.slots.values()):
            return state
        return rules.state_from_wire(rules.state_to_wire(state, public=True))

    def eject(self, state: State, seat: int) -> State:
        """Eliminate an absent seat."""
        return rules.eject(state, seat)

    def alive(self, state: State) -> tuple[bool, ...]:
        """Per seat: still in the game."""
        return tuple(state.alive)

    def digest(self, state: State) -> bytes:
        """The state's canonical digest."""
        d: bytes = state.digest()
        return d

    def winners(self, state: State) -> tuple[int, ...]:
        """The winning seats."""
        return tuple(state.winners)

    def turn(self, state: State) -> int:
        """The turn number."""
        t: int = state.turn
        return t

    def describe_move(self, state: State, action: Value) -> str:
        """One line for an action in wire form."""
        return rules.describe_action(state, rules.action_from_wire(action))

    def describe_random(self, state: State, values: tuple[int, ...]) -> str:
        """Dice as faces, such as ``dice 1 2 3 ⚡ ♥ ✸``; a draw as the card drawn."""
        p = state.pending
        if isinstance(p, rules.RandomRequest) and all(b == 6 for b in p.bounds):
            return "dice " + rules.SYMBOLS.dice(values)
        if isinstance(p, rules.RandomRequest) and len(values) == 1:
            unrevealed = sorted(state.deck)
            if len(unrevealed) == p.bounds[0]:
                return f"draws {rules.card_name(unrevealed[values[0]])}"
        return f"random values {list(values)}"

    def narrate_move(self, state: State, action: Value, verbose: bool = False) -> list[str]:
        """The engine's events for the action, in plain words.

        ``-- turn N: Monster --`` opens a turn. Minor events come only if ``verbose``."""
        return [text for text, _ in self.narrate_move_events(state, action, verbose)]

    def narrate_random(
        self, state: State, values: tuple[int, ...], verbose: bool = False
    ) -> list[str]:
        """The engine's events for the random outcome, in plain words."""
        return [text for text, _ in self.narrate_random_events(state, values, verbose)]

    def narrate_eject(self, state: State, seat: int, verbose: bool = False) -> list[str]:
        """The engine's events for the ejection, in plain words."""
        return [text for text, _ in self.narrate_eject_events(state, seat, verbose)]

    def narrate_move_events(self, state: State, action: Value, verbose: bool = False
                            ) -> list[tuple[str, object]]:
        """:meth:`narrate_move`, each line with the :mod:`kotp2p.rules` event it says."""
        events: list[rules.Event] = []
        try:
            rules.apply(state, rules.action_for(state, action), events=events)
        except rules.IllegalAction:
            return []
        return _tell(events, state, verbose)

    def narrate_random_events(self, state: State, values: tuple[int, ...], verbose: bool = False
                              ) -> list[tuple[str, object]]:
        """:meth:`narrate_random`, each line with the event it says."""
        events: list[rules.Event] = []
        try:
            rules.apply(state, rules.RandomResult(tuple(values)), events=events)
        except rules.IllegalAction:  # hidden values of a peek this replica cannot see
            return []
        return _tell(events, state, verbose)

    def narrate_eject_events(self, state: State, seat: int, verbose: bool = False
                             ) -> list[tuple[str, object]]:
        """:meth:`narrate_eject`, each line with the event it says."""
        events: list[rules.Event] = []
        try:
            rules.eject(state, seat, events=events)
        except rules.IllegalAction:
            return []
        return _tell(events, state, verbose)

    def describe_state(self, state: State) -> str:
        """The state in the engine's text notation."""
        return rules.to_text(state)


def _tell(events: list[rules.Event], state: State, verbose: bool) -> list[tuple[str, object]]:
    texts = rules.describe_events(events, state)
    return [(f"-- {text} --" if isinstance(e, rules.TurnBegan) else text, e)
            for text, e in zip(texts, events, strict=True) if verbose or not rules.is_minor(e)]
