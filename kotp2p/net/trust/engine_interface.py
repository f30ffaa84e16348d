"""The engine interface: what ``kotp2p.net`` needs from a rules engine, as a narrow protocol.

The trust core drives a game only through :class:`GameEngine`. It never looks inside a state. The
real engine is :mod:`kotp2p.rules`, adapted in :mod:`kotp2p.net.trust.kot_engine`. Tests also plug
in small engines. States and actions are opaque. Moves travel in the engine's wire form, as plain
msgpack values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from kotp2p.net.trust.genesis import Genesis
from kotp2p.net.wire import Value

State = Any
"""An engine state: opaque to the trust core."""


@dataclass(frozen=True)
class DeckCall:
    """A decision whose MOVE commits new slots of its seat's hidden deck, numbered from ``first``.

    A new deck holds ``cards``, a public list, in an order only its owner knows. A reshuffle
    holds the cards of the seat's earlier ``slots``, in a new order. The MOVE answers with
    ``action`` and carries the commitments and their proof."""

    first: int
    cards: tuple[int, ...]
    slots: tuple[int, ...]
    action: Value


@dataclass(frozen=True)
class Turn:
    """Seat ``seat`` must decide; the decision comes as its MOVE.

    With ``deck``, the decision is the commitment of a hidden deck, which the protocol makes."""

    seat: int
    deck: DeckCall | None = None


@dataclass(frozen=True)
class Chance:
    """Random event number ``index`` needs one value per bound.

    ``index`` is k, counted from 1. ``private_to`` is a seat, or -1. A private event is learnt by
    that seat alone: it fills its hidden slot ``index``."""

    bounds: tuple[int, ...]
    index: int
    private_to: int = -1
    deck_slots: tuple[int, ...] = ()
    """For a private event that tells its owner cards of its hidden deck: those slots. The
    owner learns them from its own deck, not from randomness."""


@dataclass(frozen=True)
class Poll:
    """Every seat of ``seats`` answers at once, each from its own view of the state.

    No answer changes what the others may answer. The answers apply in the order of ``seats``,
    once all are in. Power Up!'s windows, where each hand may play an Evolution, are polls."""

    seats: tuple[int, ...]


Pending = Turn | Chance | Poll | None
"""What a state waits for; None once the game is over."""


class GameEngine(Protocol):
    """The rules, as the trust core sees them. Every method is pure."""

    @property
    def engine_id(self) -> str:
        """Names the exact rules: version and card tables. It is stored in the genesis."""
        ...

    def engine_id_for(self, options: Value) -> str:
        """The engine id a genesis with these options must carry: expansions change it.

        :raises ValueError: for options this engine cannot play."""
        ...

    def default_options(self, seats: int) -> Value:
        """The options of a game with ``seats`` seats, in wire form."""
        ...

    def start(self, monsters: Sequence[str], options: Value) -> State:
        """The first state. :raises ValueError: bad monsters or options."""
        ...

    def pending(self, state: State) -> Pending:
        """Whose decision or which random event the state waits for."""
        ...

    def apply_move(self, state: State, action: Value) -> State:
        """Apply the pending seat's action given in wire form.

        :raises ValueError: malformed or illegal; the message says why.
        """
        ...

    def apply_random(self, state: State, values: tuple[int, ...]) -> State:
        """Answer the pending random event."""
        ...

    def poll_view(self, state: State, seat: int) -> State:
        """The state in which ``seat`` answers the pending poll: its own decision pending.

        :meth:`apply_move` checks its answer there."""
        ...

    def apply_poll(self, state: State, answers: Sequence[Value]) -> State:
        """Apply every answer to the pending poll, in wire form, in the order of its seats.

        :raises ValueError: an answer is malformed or illegal."""
        ...

    def apply_hidden(self, state: State) -> State:
        """Answer the pending private event on a replica that must not learn it."""
        ...

    def slot_content(self, state: State, values: tuple[int, ...]) -> int:
        """What hidden slot ``k`` holds once the private event k is answered with ``values``.

        Event k is the one pending in ``state``."""
        ...

    def open_slot(self, state: State, slot: int, content: int) -> State:
        """Fill a hidden slot whose opening was checked. The digest does not change.

        A slot the state no longer holds hidden is left as it is. It may have been dropped since,
        or be known here."""
        ...

    def fill_deck(self, state: State, seat: int, slot: int, card: int) -> State:
        """Fill slot ``slot`` of ``seat``'s hidden deck with ``card``: its owner's deck holds it,
        or its opening was checked. The digest does not change.

        A slot the state does not hold hidden is left as it is."""
        ...

    def played_slots(self, state: State, action: Value) -> tuple[int, ...]:
        """The slots of the deciding seat's hidden deck that ``action``, in wire form, shows
        face up. Its MOVE carries their openings. A malformed action shows none."""
        ...

    def public_view(self, state: State) -> State:
        """The state as a replica that knows none of the private outcomes holds it.

        Every hidden slot is hidden, whatever this replica knows. The digest is the same."""
        ...

    def eject(self, state: State, seat: int) -> State:
        """Eliminate an absent seat; the game goes on."""
        ...

    def alive(self, state: State) -> tuple[bool, ...]:
        """Per seat: still in the game."""
        ...

    def digest(self, state: State) -> bytes:
        """32-byte hash of the canonical encoding."""
        ...

    def winners(self, state: State) -> tuple[int, ...]:
        """The winning seats of a finished game. It is empty when everybody lost."""
        ...

    def turn(self, state: State) -> int:
        """The turn number."""
        ...

    def describe_move(self, state: State, action: Value) -> str:
        """One line of plain text for the action, in wire form, applied to ``state``."""
        ...

    def describe_random(self, state: State, values: tuple[int, ...]) -> str:
        """One line for the outcome of the random event pending in ``state``."""
        ...

    def narrate_move(self, state: State, action: Value, verbose: bool = False) -> list[str]:
        """What happened, in order and in plain words, when the action was applied to ``state``.

        The action is in wire form. A line starting with ``--`` opens a new turn. A refused action
        gives []. Details a reader can do without are left out unless ``verbose``."""
        ...

    def narrate_random(
        self, state: State, values: tuple[int, ...], verbose: bool = False
    ) -> list[str]:
        """The same for the outcome of the random event pending in ``state``."""
        ...

    def narrate_eject(self, state: State, seat: int, verbose: bool = False) -> list[str]:
        """The same for the ejection of an absent seat."""
        ...

    def describe_state(self, state: State) -> str:
        """A few lines of plain text showing the state."""
        ...


@runtime_checkable
class NarratesEvents(Protocol):
    """An engine that can also hand over the event value behind each line it narrates.

    The real rules do it with :mod:`kotp2p.rules.events`. A view which knows the engine can then
    tell what happened without reading the words, such as who was hit and by whom. It is optional.
    For an engine without it, narration works from the lines alone."""

    def narrate_move_events(self, state: State, action: Value, verbose: bool = False
                            ) -> list[tuple[str, object]]:
        """:meth:`GameEngine.narrate_move`, each line with its event."""
        ...

    def narrate_random_events(self, state: State, values: tuple[int, ...], verbose: bool = False
                              ) -> list[tuple[str, object]]:
        """:meth:`GameEngine.narrate_random`, each line with its event."""
        ...

    def narrate_eject_events(self, state: State, seat: int, verbose: bool = False
                             ) -> list[tuple[str, object]]:
        """:meth:`GameEngine.narrate_eject`, each line with its event."""
        ...


def engine_id_of(engine: GameEngine, genesis: Genesis) -> str:
    """The engine id ``engine`` would give a game with the genesis's options.

    A genesis with options the engine cannot play gets a description that matches no id."""
    try:
        return engine.engine_id_for(genesis.options)
    except ValueError as exc:
        return f"{engine.engine_id}, which cannot play these options ({exc})"
