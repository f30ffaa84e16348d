"""Events: what happened inside one ``apply``, in order, as small frozen values.

``rules.apply(state, action, events=lst)`` appends one event per thing that happened to
``lst``; without ``events`` nothing is recorded and nothing is built (the emitting code tests
``s.sink is not None`` first). Seats are seat numbers, cards are card ids (0: no card), places
are ``CITY``/``BAY``. :func:`kotp2p.rules.describe_event` says an event in plain words.

Where an event has a ``card``, that card caused it (0: the base rules did). ``why`` names the
base-rule cause of a ★/⚡ change: ``"dice"``, ``"tokyo"`` (start of turn in Tokyo),
``"enter"`` (entering Tokyo), ``"card"`` (the event's card). ⚡ spent to buy or sweep is in
:class:`CardBought` and :class:`MarketSwept`, not in an :class:`EnergyChanged`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from kotp2p.rules.actions import Action

WHY_DICE = "dice"
WHY_TOKYO = "tokyo"
WHY_ENTER = "enter"
WHY_CARD = "card"


@dataclass(frozen=True, slots=True)
class RolledOff:
    """The roll-off for the first player: each contender's dice; ``first`` is -1 on a tie
    (the tied seats roll again)."""

    seats: tuple[int, ...]
    dice: tuple[tuple[int, ...], ...]
    first: int


@dataclass(frozen=True, slots=True)
class TurnBegan:
    """``seat``'s turn ``turn`` begins; ``extra``: a turn out of the rotation (Frenzy...)."""

    seat: int
    turn: int
    extra: bool = False


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """``seat`` rolled: ``dice`` are all its dice now, ``rolled`` the indices that got new
    values (every die for the first roll)."""

    seat: int
    dice: tuple[int, ...]
    rolled: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiceKept:
    """``seat`` stopped rolling: ``dice`` are its final roll (cards may still change a die)."""

    seat: int
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiceChanged:
    """``card`` changed a die of ``seat``'s: ``dice`` are its dice now."""

    seat: int
    dice: tuple[int, ...]
    card: int


@dataclass(frozen=True, slots=True)
class StarsChanged:
    """``seat`` gained (``delta`` > 0) or lost stars, after the 0..20 limits."""

    seat: int
    delta: int
    why: str
    card: int = 0


@dataclass(frozen=True, slots=True)
class EnergyChanged:
    """``seat`` gained (``delta`` > 0) or lost energy."""

    seat: int
    delta: int
    why: str
    card: int = 0


@dataclass(frozen=True, slots=True)
class Damaged:
    """``seat`` lost ``amount`` health from ``dealer`` (-1: nobody, like poison); ``smash``:
    from smashes (it may make a monster in Tokyo yield)."""

    seat: int
    amount: int
    dealer: int
    smash: bool


@dataclass(frozen=True, slots=True)
class Healed:
    """``seat`` gained ``amount`` health (after its maximum)."""

    seat: int
    amount: int
    card: int = 0


@dataclass(frozen=True, slots=True)
class EnteredTokyo:
    """``seat`` took ``place`` (``CITY`` or ``BAY``)."""

    seat: int
    place: int
    card: int = 0


@dataclass(frozen=True, slots=True)
class StayedInTokyo:
    """``seat``, smashed in ``place``, stays."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class YieldedTokyo:
    """``seat``, smashed in ``place``, yields it."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class LeftTokyo:
    """``seat`` was put out of ``place`` by a card (not a yield, not an elimination)."""

    seat: int
    place: int
    card: int


@dataclass(frozen=True, slots=True)
class BayClosed:
    """Fewer than five monsters live: Tokyo Bay closes; its occupant ``seat`` (-1: nobody)
    moves to the empty City (``to_city``) or leaves Tokyo."""

    seat: int
    to_city: bool


@dataclass(frozen=True, slots=True)
class CardRevealed:
    """``card`` was drawn into market ``slot``."""

    card: int
    slot: int


@dataclass(frozen=True, slots=True)
class CardBought:
    """``seat`` paid ``price`` energy for ``card``."""

    seat: int
    card: int
    price: int


@dataclass(frozen=True, slots=True)
class MarketSwept:
    """``seat`` paid ``price`` energy to discard the market (the discards and reveals follow)."""

    seat: int
    price: int


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """``card`` went to the discard pile from ``seat``'s cards (-1: from the market)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class TokensChanged:
    """Tokens on ``seat``: ``kind`` is ``"poison"``, ``"shrink"`` or ``"card"`` (the tokens
    on ``card`` itself, like Battery Monster's energy); ``delta`` added (> 0) or spent."""

    seat: int
    kind: str
    delta: int
    card: int = 0


@dataclass(frozen=True, slots=True)
class CardEffect:
    """The effect of ``seat``'s ``card`` fires (what it does follows as its own events)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Copied:
    """``seat``'s copier ``card`` (Mimic) copies ``target`` now."""

    seat: int
    card: int
    target: int


@dataclass(frozen=True, slots=True)
class AutoDecision:
    """``seat``'s ``kind`` decision had one legal answer: the engine applied ``action``."""

    seat: int
    kind: str
    action: Action


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """``seat`` will take another turn after this one, thanks to ``card``."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Eliminated:
    """``seat``'s monster is out (its cards go to the discard pile)."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: ``winners`` (empty: everybody lost); ``by_stars``: reached 20★."""

    winners: tuple[int, ...]
    by_stars: bool


Event = (
    RolledOff
    | TurnBegan
    | DiceRolled
    | DiceKept
    | DiceChanged
    | StarsChanged
    | EnergyChanged
    | Damaged
    | Healed
    | EnteredTokyo
    | StayedInTokyo
    | YieldedTokyo
    | LeftTokyo
    | BayClosed
    | CardRevealed
    | CardBought
    | MarketSwept
    | CardDiscarded
    | TokensChanged
    | CardEffect
    | Copied
    | AutoDecision
    | ExtraTurn
    | Eliminated
    | GameOver
)

EVENT_TYPES: tuple[type, ...] = get_args(Event)
