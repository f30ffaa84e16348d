"""A Power card as one value: what is printed on it, what it does, and what a bot thinks of it.

Each card module declares its cards as :class:`Card` values in a ``CARDS`` tuple, and
:mod:`kotp2p.rules.cardlist` lists every such tuple. Nothing here knows the engine: a card
names its effects by hook point, as listed in ``registry.HOOK_POINTS``, and the engine finds
them there.

A card's ``kind`` says where it goes once a monster gets it. The engine tests each kind by name
and never infers one kind from another. So a new kind, such as Halloween's Costume cards or
Power Up!'s Evolution cards, needs only its own constant and the code that handles it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

KEEP = "keep"
"""Bought from the market. It stays in front of its owner."""
DISCARD = "discard"
"""Bought from the market. It takes effect once, then goes to the discard pile."""
COSTUME = "costume"
"""Halloween's Costume cards. It stays in front of its owner like a Keep card, but it is not one:
nothing that names Keep cards touches it. Another monster may take it by stealing."""
TEMPORARY = "temporary"
"""Power Up!'s Temporary Evolution: played from a hidden hand, it acts once and is discarded."""
PERMANENT = "permanent"
"""Power Up!'s Permanent Evolution: played from a hidden hand, it stays face up before its owner."""
GIFT = "gift"
"""Power Up!'s Gift Evolution: played in front of a monster its owner wounds, it acts on that
monster. It still belongs to its owner."""
EVOLUTION_KINDS = (TEMPORARY, PERMANENT, GIFT)
"""The kinds of Evolution cards. Nothing that names Power cards touches an Evolution."""

BASE = "base"
"""The box of the base game, 2016 card set."""
HALLOWEEN = "halloween"
"""The Halloween expansion: the Costume cards."""
POWER_UP = "power up"
"""The Power Up! expansion: each monster's own deck of 8 Evolution cards."""

HookFn = Callable[..., Any]
"""A card's effect at one hook point. The hook point fixes its signature."""

SLUGS: dict[int, str] = {}
"""Card id -> its name in the text notation.

``cardindex.index_cards`` fills it. The first of two cards with one name gets the plain name,
``extrahead``. The second adds a digit: ``extrahead2``."""


@dataclass(frozen=True, slots=True)
class Card:
    """One Power card: its printed face, its effects, and a bot's rough view of it.

    ``id`` is the card's number in the engine: Keep cards 1-48 and Discard cards 101-118 for the
    base game, as in the reference digital version. Two copies of a printed card are two cards.
    ``timing`` says when the card acts, as printed. ``text`` is the card's effect in plain words,
    as the screen shows it: amounts are written with symbols, as in ``2⚡``, ``1♥``, ``3★``.

    ``hooks`` maps hook point names to the functions that make the card's effect.

    ``worth`` is what the card is worth to a bot, in energy. ``None`` means its cost.
    ``self_damage`` is the health its buyer loses at once by its own effect.

    ``token`` names the kind of token the card gives other monsters, such as ``"poison"``. The
    state keeps those tokens per seat, and they bear the card's name. ``copier`` marks a card
    that copies another card in play, as Mimic does; ``registry`` says how.

    ``box`` is the game or expansion the card comes in. Only the base box fills the Power deck.
    ``monster`` is for cards that belong to one monster's own deck; it is empty for the rest.
    ``windows`` names the moments when an Evolution may be played, as ``powerup`` lists them.
    """

    id: int
    name: str
    cost: int
    kind: str
    timing: str
    text: str
    hooks: Mapping[str, HookFn] = field(default_factory=dict, compare=False)
    worth: float | None = None
    self_damage: int = 0
    token: str = ""
    copier: bool = False
    box: str = BASE
    monster: str = ""
    windows: tuple[str, ...] = ()

    @property
    def rough_worth(self) -> float:
        """What the card is worth to a bot, in energy: its ``worth``, or else its cost."""
        return float(self.cost) if self.worth is None else self.worth

    @property
    def slug(self) -> str:
        """The card's name in the text notation: lower case letters and digits only."""
        return SLUGS[self.id]


ANY_TIME = ("start", "end")
"""The windows of a card played at any time: the start and the end of every turn."""


def evolution(id: int, monster: str, name: str, kind: str, timing: str, text: str,
              windows: tuple[str, ...] = ANY_TIME, copier: bool = False, **hooks: HookFn) -> Card:
    """The Power Up! Evolution card ``id`` of ``monster``'s deck. Evolutions cost nothing.

    ``windows`` are the moments it may be played; a card whose effect is not built has no hooks
    and is never offered."""
    return Card(id=id, name=name, cost=0, kind=kind, timing=timing, text=text, hooks=hooks,
                box=POWER_UP, monster=monster, windows=windows, copier=copier)


def slugify(name: str) -> str:
    """``name`` in lower case letters and digits only, as the text notation writes it."""
    return "".join(ch for ch in name.lower() if ch.isalnum())
