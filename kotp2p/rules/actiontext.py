"""Actions as short words, for scripted games and logs.

The words are ``roll 123ehs``, ``reroll 0,2``, ``stop``, ``yield``, ``stay``, ``buy heal``,
``sweep``, ``done``, ``pass``, ``draw tank``, ``use energydrink`` and ``random 4``. A card's
arguments follow its name: ``use stretchy 2,5``. ``random`` gives raw values.

Reading needs the state the action applies to. ``roll`` and ``draw`` are answers to its pending
random event, named by faces and by card.
"""

from __future__ import annotations

from kotp2p.rules.actions import (
    DONE,
    PASS,
    STAY,
    STOP,
    SWEEP,
    YIELD,
    Action,
    Buy,
    KeepEvolution,
    PlayEvolution,
    RandomResult,
    Reroll,
    UseCard,
)
from kotp2p.rules.dice import format_dice, parse_dice
from kotp2p.rules.errors import IllegalAction
from kotp2p.rules.registry import BY_SLUG, SLUGS
from kotp2p.rules.state import RandomRequest, State

_WORDS: dict[str, Action] = {
    "stop": STOP,
    "yield": YIELD,
    "stay": STAY,
    "sweep": SWEEP,
    "done": DONE,
    "pass": PASS,
}
_NAMES: dict[type, str] = {type(a): w for w, a in _WORDS.items()}


def _answers(state: State, values: tuple[int, ...]) -> tuple[int, ...]:
    """The bounds of the random event pending in ``state``, if ``values`` are known values that
    answer it.

    Else ``()``: a decision is pending, or the values are hidden or do not fit."""
    pending = state.pending
    if (
        isinstance(pending, RandomRequest)
        and values
        and min(values) >= 0
        and len(values) == len(pending.bounds)
    ):
        return pending.bounds
    return ()


def rolls_dice(state: State, values: tuple[int, ...]) -> bool:
    """True if ``values`` are die faces rolled for the random event pending in ``state``."""
    bounds = _answers(state, values)
    return bool(bounds) and all(b == 6 for b in bounds)


def drawn_card(state: State, values: tuple[int, ...]) -> int | None:
    """The card of the deck that ``values`` draw for the event pending in ``state``, or None.

    An event draws a card for a market refill, or for a peek known to this replica."""
    bounds = _answers(state, values)
    if len(bounds) == 1 and bounds[0] == len(state.deck) and values[0] < bounds[0]:
        return state.deck[values[0]]
    return None


def _ints(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",")) if text else ()
    except ValueError:
        raise IllegalAction(f"expected numbers separated by commas, found {text!r}") from None


def _card(slug: str) -> int:
    card = BY_SLUG.get(slug)
    if card is None:
        raise IllegalAction(f"expected a card name in lower-case letters and digits, found {slug!r}")
    return card


def format_action(state: State, action: Action) -> str:
    """``action``, to be applied to ``state``, as short words. :func:`parse_action` reads them."""
    name = _NAMES.get(type(action))
    if name is not None:
        return name
    if isinstance(action, Reroll):
        return "reroll " + ",".join(map(str, action.dice))
    if isinstance(action, Buy):
        return f"buy {SLUGS[action.card]}"
    if isinstance(action, UseCard):
        args = " " + ",".join(map(str, action.args)) if action.args else ""
        return f"use {SLUGS[action.card]}{args}"
    if isinstance(action, KeepEvolution):
        return f"evolve {action.slot}"
    if isinstance(action, PlayEvolution):
        args = " " + ",".join(map(str, action.args)) if action.args else ""
        return f"play {action.slot} {SLUGS[action.card]}{args}"
    assert isinstance(action, RandomResult)
    values = action.values
    if rolls_dice(state, values):
        return "roll " + format_dice(values)
    card = drawn_card(state, values)
    if card is not None:
        return f"draw {SLUGS[card]}"
    return "random " + ",".join(map(str, values))


def parse_action(state: State, text: str) -> Action:
    """Read an action written by :func:`format_action`, for the pending input of ``state``.

    :raises IllegalAction: for words that name no action, saying what was expected.
    """
    word, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if word in _WORDS and not rest:
        return _WORDS[word]
    if word == "reroll":
        return Reroll(_ints(rest))
    if word == "buy":
        return Buy(_card(rest))
    if word == "use":
        slug, _, args = rest.partition(" ")
        return UseCard(_card(slug), _ints(args.strip()))
    if word == "evolve":
        slots = _ints(rest)
        if len(slots) != 1:
            raise IllegalAction(f"expected one deck slot after 'evolve', found {rest!r}")
        return KeepEvolution(slots[0])
    if word == "play":
        slot, _, rest = rest.partition(" ")
        slug, _, args = rest.strip().partition(" ")
        slots = _ints(slot)
        if len(slots) != 1:
            raise IllegalAction(f"expected 'play SLOT CARD', found {text!r}")
        return PlayEvolution(slots[0], _card(slug), _ints(args.strip()))
    if word == "random":
        return RandomResult(_ints(rest))
    if word == "roll":
        try:
            return RandomResult(parse_dice(rest))
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
    if word == "draw":
        card = _card(rest)
        if card not in state.deck:
            raise IllegalAction(f"expected a card still in the deck, found {rest!r}")
        return RandomResult((state.deck.index(card),))
    raise IllegalAction(
        "expected an action: roll FACES, reroll I,J, stop, yield, stay, buy CARD, sweep, done, "
        f"pass, draw CARD, use CARD [ARGS], evolve SLOT, play SLOT CARD [ARGS] "
        f"or random V,W; found {text!r}"
    )
