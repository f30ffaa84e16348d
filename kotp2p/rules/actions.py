"""Actions: the inputs of the engine, as small immutable value types.

:func:`action_to_wire` encodes every action to a fixed-order array ``[tag, field, ...]`` of plain
msgpack values. :func:`action_from_wire` accepts any object. It either rebuilds the action or raises
:class:`IllegalAction` saying what was expected. So a peer's bytes can never raise anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from kotp2p.rules.errors import IllegalAction

# Actions are frozen dataclasses. Two actions are equal only if they are of the same kind with
# the same fields, so ``Pass() != Done()``. They hash by their fields, and their repr rebuilds them.


@dataclass(frozen=True, slots=True)
class RandomResult:
    """The answer to a ``RandomRequest``: one integer ``0 <= values[i] < bounds[i]`` per bound.

    ``values`` is a tuple of ``int``, never of ``bool``."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Reroll:
    """Re-roll the dice at these indices. They are sorted and distinct, and there is at least one."""

    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop rolling: the current dice are the final roll."""


@dataclass(frozen=True, slots=True)
class Yield:
    """Leave Tokyo after being smashed there."""


@dataclass(frozen=True, slots=True)
class Stay:
    """Stay in Tokyo after being smashed there."""


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy the Power card with this id, from the market or wherever a card allows."""

    card: int


@dataclass(frozen=True, slots=True)
class Sweep:
    """Pay 2 energy to discard the three face-up cards and reveal three new ones."""


@dataclass(frozen=True, slots=True)
class Done:
    """Finish the current step: stop buying, stop selling, and so on."""


@dataclass(frozen=True, slots=True)
class UseCard:
    """Use an ability of an owned card. ``args`` are the card's own parameters: dice, faces, seats."""

    card: int
    args: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class KeepEvolution:
    """Power Up!: keep the Evolution drawn into this deck slot. It names the slot, not the card,
    so nobody else learns the card."""

    slot: int


@dataclass(frozen=True, slots=True)
class PlayEvolution:
    """Power Up!: play the Evolution ``card`` from the hand's deck ``slot``. It opens the slot.

    ``args`` are the card's own parameters, as for :class:`UseCard`."""

    slot: int
    card: int
    args: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline an optional reaction, such as a card window on someone else's turn."""


Action = (
    RandomResult | Reroll | Stop | Yield | Stay | Buy | Sweep | Done | UseCard | Pass | KeepEvolution
    | PlayEvolution
)

ACTION_TYPES: frozenset[type] = frozenset(get_args(Action))
"""The classes of :data:`Action`, for a quick test of what an input is."""

STOP = Stop()
YIELD = Yield()
STAY = Stay()
SWEEP = Sweep()
DONE = Done()
PASS = Pass()

_TAGS: dict[type, int] = {
    RandomResult: 0,
    Reroll: 1,
    Stop: 2,
    Yield: 3,
    Stay: 4,
    Buy: 5,
    Sweep: 6,
    Done: 7,
    UseCard: 8,
    Pass: 9,
    KeepEvolution: 10,
    PlayEvolution: 11,
}
_SINGLETONS: dict[int, Action] = {2: STOP, 3: YIELD, 4: STAY, 6: SWEEP, 7: DONE, 9: PASS}
_MAX_INTS = 64


def action_to_wire(action: Action) -> list[object]:
    """The action as a fixed-order array of plain values: ``[tag, field, ...]``."""
    tag = _TAGS[type(action)]
    if isinstance(action, RandomResult):
        return [tag, list(action.values)]
    if isinstance(action, Reroll):
        return [tag, list(action.dice)]
    if isinstance(action, Buy):
        return [tag, action.card]
    if isinstance(action, UseCard):
        return [tag, action.card, list(action.args)]
    if isinstance(action, KeepEvolution):
        return [tag, action.slot]
    if isinstance(action, PlayEvolution):
        return [tag, action.slot, action.card, list(action.args)]
    return [tag]


def _int(x: object, what: str) -> int:
    if type(x) is not int:
        raise IllegalAction(f"expected an integer for {what}, found {type(x).__name__}")
    if not -(2**31) <= x < 2**31:
        raise IllegalAction(f"expected {what} within 32 bits, found {x}")
    return x


def _ints(x: object, what: str) -> tuple[int, ...]:
    if not isinstance(x, list | tuple):
        raise IllegalAction(f"expected a list of integers for {what}, found {type(x).__name__}")
    if len(x) > _MAX_INTS:
        raise IllegalAction(f"expected at most {_MAX_INTS} integers for {what}, found {len(x)}")
    return tuple(_int(v, what) for v in x)


def action_from_wire(obj: object) -> Action:
    """Rebuild an action from :func:`action_to_wire` output.

    :raises IllegalAction: if ``obj`` is not a well-formed action.
    """
    if not isinstance(obj, list | tuple) or not obj:
        raise IllegalAction(f"expected an action array [tag, ...], found {type(obj).__name__}")
    tag = _int(obj[0], "the action tag")
    arity = len(obj) - 1
    single = _SINGLETONS.get(tag)
    if single is not None:
        if arity:
            raise IllegalAction(f"expected no fields for {type(single).__name__}, found {arity}")
        return single
    if tag == 0 and arity == 1:
        return RandomResult(_ints(obj[1], "random values"))
    if tag == 1 and arity == 1:
        return Reroll(_ints(obj[1], "dice to re-roll"))
    if tag == 5 and arity == 1:
        return Buy(_int(obj[1], "the card id"))
    if tag == 8 and arity == 2:
        return UseCard(_int(obj[1], "the card id"), _ints(obj[2], "card arguments"))
    if tag == 10 and arity == 1:
        slot = _int(obj[1], "the deck slot")
        if slot < 0:
            raise IllegalAction(f"expected a deck slot of 0 or more, found {slot}")
        return KeepEvolution(slot)
    if tag == 11 and arity == 3:
        slot = _int(obj[1], "the deck slot")
        if slot < 0:
            raise IllegalAction(f"expected a deck slot of 0 or more, found {slot}")
        return PlayEvolution(slot, _int(obj[2], "the card id"), _ints(obj[3], "card arguments"))
    if 0 <= tag <= 11:
        raise IllegalAction(f"wrong number of fields ({arity}) for action tag {tag}")
    raise IllegalAction(f"expected an action tag 0..11, found {tag}")
