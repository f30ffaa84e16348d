"""The registries the turn machine dispatches through: cards, steps, decisions, random events.

The turn machine never names a card. Cards contribute *hooks*: functions a :class:`Card`
declares under a hook name. The machine calls hooks at fixed points, listed in ``HOOK_POINTS``.
:func:`install_cards` indexes the cards that :mod:`kotp2p.rules.cardlist` lists. Some modules add
kinds of frames: steps, decisions, random events. They declare them in a :class:`Frames` value, and
:func:`install_frames` adds them. ``machine`` installs the engine's own, ``cardlist`` the cards'.

A *copier* card, marked by ``Card.copier``, counts as one more copy of the card it targets. The
target's id is kept in ``s.flags`` under the copier's key. Every hook lookup below yields the
copier twice: once as itself, and once more with the target's hook functions. The lookups are
:func:`hooked`, :func:`hook_sum`, :func:`has_hook` and :func:`fire`. The target's functions are
called with the copier's own id. So tokens and "discard this card" apply to the copier.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kotp2p.rules.actions import Action
from kotp2p.rules.card import DISCARD as DISCARD
from kotp2p.rules.card import KEEP as KEEP
from kotp2p.rules.card import Card as Card
from kotp2p.rules.cardindex import BY_SLUG as BY_SLUG
from kotp2p.rules.cardindex import CARDS as CARDS
from kotp2p.rules.cardindex import COPIERS as COPIERS
from kotp2p.rules.cardindex import SLUGS as SLUGS
from kotp2p.rules.cardindex import TOKEN_CARDS as TOKEN_CARDS
from kotp2p.rules.cardindex import card_by_name as card_by_name
from kotp2p.rules.cardindex import index_cards
from kotp2p.rules.hookorder import RULED_ORDER, canonical_pairs, effect_order, rank
from kotp2p.rules.state import CARD_ROLL, Frame, State

# Hook points, with the signature the machine calls them with. ``card`` is the card id that
# carries the hook, ``seat`` its owner. Values-returning hooks are summed.
HOOK_POINTS: dict[str, str] = {
    "bought": "(s, seat, card) -> None: the card's own effect when bought (after the refill)",
    "gained": "(s, seat, card) -> None: the card came into play in front of seat (bought, copied)",
    "lost": "(s, seat, card) -> None: the card left seat's play area",
    "evolve": "(s, seat, card) -> None: an Evolution's effect when its owner plays it",
    "can_play": "(s, seat, card) -> bool: an Evolution may be played now, from public facts",
    "start_turn": "(s, seat, card) -> None: at the start of its owner's turn",
    "dice_count": "(s, seat, card) -> int: extra dice for its owner's turn",
    "roll_count": "(s, seat, card) -> int: extra rolls for its owner's turn",
    "roll_actions": "(s, seat, card) -> tuple[Action, ...]: extra choices in the roll decision",
    "after_roll": "(s, seat, card) -> Frame|None: a window for others after the final roll",
    "change_die": "(s, seat, card) -> Frame|None: the active monster's change-die window",
    "change_actions": "(s, seat, card) -> tuple[Action, ...]: choices in a change-die window",
    "add_smashes": "(s, seat, card, counts, stage) -> int: smashes a card adds to the roll",
    "resolve": "(s, seat, card, counts, smashes) -> None: dice patterns at the start of resolving; "
    "a hit it deals lands after the heart faces",
    "numbers": "(s, seat, card, counts) -> None: after number faces score; a hit it deals "
    "lands after the heart faces",
    "heart_actions": "(s, seat, card, hearts) -> tuple[Action, ...]: ways to spend heart dice",
    "smash": "(s, seat, card, smashes, hits, extra) -> None: when the owner's smashes resolve; "
    "may add to ``hits`` (target -> amount, merged into the smash) or to ``extra`` (separate "
    "non-smash hits in the same resolution)",
    "smash_targets": "(s, seat, card) -> bool: the owner's smashes hit everybody",
    "hit_window": "(s, seat, card, frame) -> bool: reaction before a hit lands (pushes frames)",
    "protect": "(s, seat, card, amount, dealer, smash) -> int: the amount left after protection",
    "after_hit": "(s, seat, card, victim, lost, dealer, smash) -> None: after any hit lands",
    "before_yields": "(s, seat, card, smashed) -> None: the active owner's smashes hit the Tokyo "
    "monsters of bitmask ``smashed``, before they decide whether to yield (pushes frames)",
    "discard_buy": "(s, seat, card) -> tuple[Action, ...]: choices an Evolution face up in its "
    "owner's discard offers in the owner's buy step",
    "before_enter": "(s, seat, card) -> None: another monster is about to enter Tokyo (pushes "
    "frames), in Power Up!",
    "after_yields": "(s, seat, card) -> Frame|None: after every yield decision, before entering",
    "heal_bonus": "(s, seat, card) -> int: extra ♥ each time the owner heals",
    "energy_bonus": "(s, seat, card) -> int: extra ⚡ each time the owner gains energy",
    "max_hp": "(s, seat, card) -> int: raises the owner's maximum health",
    "cost": "(s, seat, card, bought) -> int: change to what the owner pays for a card",
    "on_buy": "(s, seat, card, bought) -> None: when the owner buys any card",
    "revealed": "(s, seat, card, revealed) -> Frame|None: a window when a card is revealed",
    "yielded": "(s, seat, card) -> None: the owner yielded Tokyo",
    "stayed": "(s, seat, card) -> None: the owner chose to stay in Tokyo after a smash",
    "left_tokyo": "(s, seat, card) -> None: the owner, still in the game, left Tokyo",
    "entered": "(s, seat, card) -> None: the owner entered Tokyo (pushes no frames)",
    "after_buy": "(s, seat, card) -> Frame|None: a step after the owner's buy step (sell)",
    "end_turn": "(s, seat, card) -> None: at the end of its owner's turn",
    "dying": "(s, seat, card) -> bool: the owner is at 0♥; True if the card saved it",
    "buy_actions": "(s, seat, card) -> tuple[Action, ...]: extra choices in the buy decision",
    "before_roll": "(s, seat, card) -> tuple[Action, ...]: choices before the owner's first "
    "roll, in Power Up!",
    "use": "(s, seat, card, frame, action) -> None: the owner chose UseCard(card, ...) in a decision",
    "extra_turn": "(s, seat, card) -> bool: at the end of the owner's turn, grant another turn",
    "end_any_turn": "(s, seat, card) -> None: at the end of every monster's turn, the owner's too",
    "win_stars": "(s, seat, card) -> int: the stars that win the owner the game, below 20",
    "deal_bonus": "(s, seat, card, target, amount) -> int: extra ♥ a hit of ``amount`` by the "
    "owner on its own turn makes another monster lose",
    "taken_bonus": "(s, seat, card, dealer) -> int: extra ♥ a hit from ``dealer`` makes the "
    "owner lose, in Power Up!",
    "undying": "(s, seat, card) -> bool: the owner at 0♥ is not eliminated",
    "react_actions": "(s, seat, card, left, dealer) -> tuple[Action, ...]: choices in the window "
    "against a hit from ``dealer`` that would take ``left``♥",
}

# The hook points where a ruling fixes the order of the cards: hook -> card id -> its place.
# :mod:`kotp2p.rules.hookorder` decides the order of every hook point.
HOOK_ORDER: dict[str, dict[int, int]] = {hook: rank(hook) for hook in RULED_ORDER}


def install_cards(cards: Iterable[Card]) -> None:
    """Make ``cards`` the engine's cards.

    It indexes them, notes the copiers and drops the memoised hook tables.

    :raises ValueError: for a hook point that does not exist, or an id two cards share.
    """
    cards = tuple(cards)
    for card in cards:
        unknown = sorted(set(card.hooks) - set(HOOK_POINTS))
        if unknown:
            raise ValueError(f"card {card.id} ({card.name}) has unknown hook points {unknown}")
    index_cards(cards)
    _COPIER_IDS[0] = frozenset(COPIERS)
    forget_hook_tables()


# The copier cards' ids, for fast set tests.
_COPIER_IDS: list[frozenset[int]] = [frozenset()]


def copied(s: State, card: int) -> int:
    """The card that copier ``card`` copies now. It is 0 when it copies nothing or is no copier."""
    key = COPIERS.get(card)
    return s.flags.get(key, 0) if key is not None and s.flags else 0


def card_pairs(s: State, seat: int) -> list[tuple[int, int]]:
    """``(card in play, card whose effect it has)`` for seat's cards.

    Each card comes as itself, and a copier again as the card it copies. They are in card id order
    of the effect, a card before a copy of it. They are never in the order gained."""
    out: list[tuple[int, int]] = []
    for c in s.cards[seat]:
        out.append((c, c))
        if c in COPIERS:
            t = copied(s, c)
            if t:
                out.append((c, t))
    return canonical_pairs(out)


# A hand's hook table: hook name -> ``(card, fn)`` for each of the hand's cards and copies that
# has the hook. They are in the hook point's order, from ``hookorder``. The table is a pure
# function of the hand. It is memoised because it is asked at every step of a turn. A hand with no
# copier is keyed by its cards. A hand with one is keyed by ``(card, effect)`` pairs, since what
# a copier copies changes. Every table holds the key "", which no hook has. So a table is never
# empty, and the fast inline lookup ``TABLES.get(cards) or hook_table(s, seat)`` needs no None
# test.
HookTable = dict[str, tuple[tuple[int, Callable[..., Any]], ...]]
TABLES: dict[tuple[int, ...], HookTable] = {}
_COPY_TABLES: dict[tuple[tuple[int, int], ...], HookTable] = {}
_MEMO_LIMIT = 1024
"""Entries each memo table holds before it starts again. A game meets a few hundred hands, and
a few of them new after the first games. A process that plays game after game, as a host
does, keeps about a MB of them: at 4096 they grew for a thousand games, by 3 MB."""


def forget_hook_tables() -> None:
    """Drop every memoised hook table, after a hook is registered."""
    TABLES.clear()
    _COPY_TABLES.clear()
    _ANYONE.clear()


def _build_table(pairs: tuple[tuple[int, int], ...]) -> HookTable:
    table: HookTable = {"": ()}
    names = {h: None for _, k in pairs for h in CARDS[k].hooks}  # first-seen order
    for hook in names:
        mine = [(c, k) for c, k in pairs if hook in CARDS[k].hooks]
        if len(mine) > 1:
            mine = effect_order(hook, mine)
        table[hook] = tuple((c, CARDS[k].hooks[hook]) for c, k in mine)
    return table


def hook_table(s: State, seat: int) -> HookTable:
    """The hook table of ``seat``'s hand, as described above."""
    cards = s.cards[seat]
    found = TABLES.get(cards)
    if found is not None:
        return found
    if _COPIER_IDS[0].isdisjoint(cards):
        if len(TABLES) >= _MEMO_LIMIT:
            TABLES.clear()
        found = TABLES[cards] = _build_table(tuple((c, c) for c in cards))
        return found
    pairs = tuple(card_pairs(s, seat))
    found = _COPY_TABLES.get(pairs)
    if found is None:
        if len(_COPY_TABLES) >= _MEMO_LIMIT:
            _COPY_TABLES.clear()
        found = _COPY_TABLES[pairs] = _build_table(pairs)
    return found


def copies_of(s: State, seat: int, kind: int) -> list[int]:
    """The cards in seat's play area that have ``kind``'s effect: the card itself, or a copier."""
    return [c for c, k in card_pairs(s, seat) if k == kind]


_NONE: tuple[tuple[int, Callable[..., Any]], ...] = ()


def hooked(s: State, seat: int, hook: str) -> tuple[tuple[int, Callable[..., Any]], ...]:
    """``(card, fn)`` for each of seat's cards that has ``hook``.

    A copier comes with its target's ``fn``. The pairs are in the hook point's order, from
    :mod:`kotp2p.rules.hookorder`."""
    return (TABLES.get(s.cards[seat]) or hook_table(s, seat)).get(hook, _NONE)


def hook_sum(s: State, seat: int, hook: str, *args: Any) -> int:
    """The sum of a value hook over seat's cards and copies. It is 0 when none has it."""
    found = (TABLES.get(s.cards[seat]) or hook_table(s, seat)).get(hook)
    if found is None:
        return 0
    total = 0
    for c, fn in found:
        total += fn(s, seat, c, *args)
    return total


def has_hook(s: State, seat: int, hook: str) -> bool:
    """True if any of seat's cards or copies has ``hook``."""
    return hook in (TABLES.get(s.cards[seat]) or hook_table(s, seat))


def anyone_has(s: State, hook: str) -> bool:
    """True if any monster's cards or copies have ``hook``.

    It is a fast test before a window for everybody."""
    hands = s.cards
    found = _ANYONE.get(hands)
    if found is None:
        found = frozenset().union(*(hook_table(s, seat) for seat in range(s.n)))
        if not _COPIER_IDS[0].isdisjoint(c for cs in hands for c in cs):
            return hook in found  # a copier's table depends on more than the hands
        if len(_ANYONE) >= _MEMO_LIMIT:
            _ANYONE.clear()
        _ANYONE[hands] = found
    return hook in found


# Every hand of a table of monsters -> the hook points any of them has, without copiers.
_ANYONE: dict[tuple[tuple[int, ...], ...], frozenset[str]] = {}


def use_hook(s: State, card: int) -> Callable[..., Any]:
    """The ``use`` hook that ``UseCard(card, ...)`` runs.

    It is the card's own. For a copier, it is the hook of the card it copies.

    :raises KeyError: if neither has one.
    """
    fn = CARDS[card].hooks.get("use")
    if fn is None:
        fn = CARDS[copied(s, card)].hooks["use"]
    return fn


def fire(s: State, seat: int, hook: str, *args: Any) -> None:
    """Call ``hook`` on each of seat's cards that has it."""
    found = (TABLES.get(s.cards[seat]) or hook_table(s, seat)).get(hook)
    if found is not None:
        for c, fn in found:
            fn(s, seat, c, *args)


def frame_seat(frame: Frame) -> int:
    """The seat an ``ask`` frame ``("ask", seat, kind, ...)`` asks."""
    seat = frame[1]
    assert isinstance(seat, int)
    return seat


class _ClockwiseMemo(dict[tuple[bool, ...], tuple[tuple[int, ...], ...]]):
    """``alive`` flags -> for each first seat, the live seats clockwise from it."""

    def __missing__(self, alive: tuple[bool, ...]) -> tuple[tuple[int, ...], ...]:
        n = len(alive)
        found = self[alive] = tuple(
            tuple(t for t in ((first + i) % n for i in range(n)) if alive[t]) for first in range(n)
        )
        return found


_CLOCKWISE = _ClockwiseMemo()


def seats_from(s: State, first: int) -> tuple[int, ...]:
    """Live seats clockwise starting at ``first``, which is included if alive."""
    return _CLOCKWISE[s.alive][first]


def others_of(s: State, seat: int) -> tuple[int, ...]:
    """The other live seats, clockwise from the one after ``seat``."""
    return tuple(t for t in seats_from(s, seat) if t != seat)


# --- the machine's own registries -----------------------------------------------------------

StepFn = Callable[[State, Frame], None]
_V = TypeVar("_V")


@dataclass(frozen=True, slots=True)
class DecisionKind:
    """How to list and apply the actions of one kind of decision, asked by ``ask`` frames.

    ``check`` is an optional fast legality test used instead of ``action in legal(...)``.
    ``light`` lists the action types whose ``handle`` changes no list or dict of the state in
    place, only the stack and plain fields, so ``apply`` need not copy them. ``always_ask`` asks
    even when only one action is legal here: a replica that cannot see the seat's hidden cards
    lists more, so skipping the question on one replica would tell what the seat holds.
    """

    legal: Callable[[State, Frame], tuple[Action, ...]]
    handle: Callable[[State, Frame, Action], None]
    check: Callable[[State, Frame, Action], bool] | None = None
    light: tuple[type, ...] = ()
    always_ask: bool = False


@dataclass(frozen=True, slots=True)
class RandomKind:
    """The bounds of one kind of random event, asked by ``rand`` frames, and what its values do.

    ``purpose`` is what its ``RandomRequest`` says it is for. Unless told, it is a card's own roll.
    ``light`` says that ``handle`` changes no list or dict of the state in place, only the stack
    and plain fields, so ``apply`` need not copy them.

    With ``private``, the outcome is known only to the seat it returns. The handler then
    receives ``HIDDEN`` values on the other replicas. It should keep the outcome in a hidden slot,
    in ``State.slots``, until it is opened with ``rules.open_slot``.
    """

    bounds: Callable[[State, Frame], tuple[int, ...]]
    handle: Callable[[State, Frame, tuple[int, ...]], None]
    private: Callable[[State, Frame], int] | None = None
    light: bool = False
    purpose: str = CARD_ROLL


@dataclass(frozen=True, slots=True)
class Frames:
    """The kinds of frames one module adds to the turn machine.

    ``steps`` runs frames by their op: ``fn(s, frame)``. ``decisions`` and ``randoms`` are the
    kinds of ``("ask", seat, kind, *args)`` and ``("rand", kind, *args)`` frames.
    """

    steps: Mapping[str, StepFn] = field(default_factory=dict)
    decisions: Mapping[str, DecisionKind] = field(default_factory=dict)
    randoms: Mapping[str, RandomKind] = field(default_factory=dict)


STEPS: dict[str, StepFn] = {}
DECISIONS: dict[str, DecisionKind] = {}
RANDOMS: dict[str, RandomKind] = {}


def install_frames(frames: Iterable[Frames]) -> None:
    """Add the frame kinds of ``frames`` to the turn machine.

    :raises ValueError: for a kind that is already installed.
    """
    for f in frames:
        _add(STEPS, f.steps, "step")
        _add(DECISIONS, f.decisions, "decision")
        _add(RANDOMS, f.randoms, "random event")


def _add(table: dict[str, _V], more: Mapping[str, _V], what: str) -> None:
    for kind, value in more.items():
        if kind in table:
            raise ValueError(f"{what} {kind!r} registered twice")
        table[kind] = value


def random_event(
    kind: str,
    bounds: Callable[[State, Frame], tuple[int, ...]],
    handle: Callable[[State, Frame, tuple[int, ...]], None],
    private: Callable[[State, Frame], int] | None = None,
    *,
    light: bool = False,
    purpose: str = CARD_ROLL,
) -> None:
    """Add one kind of random event now, asked with frames ``("rand", kind, *args)``.

    The engine's own kinds are listed in ``Frames`` values. Tests add kinds of their own this way.
    The arguments are those of :class:`RandomKind`.

    :raises ValueError: for a kind that is already installed.
    """
    install_frames([Frames(randoms={kind: RandomKind(bounds, handle, private, light, purpose)})])
