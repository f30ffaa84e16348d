"""The printed side of the Power cards: one :class:`CardDef` per card id, and the names the text
notation and the action words use for them. Card effects (hooks) are attached later by the card
modules through ``registry.card_hook``; this module imports nothing of the engine."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

KEEP = "keep"
DISCARD = "discard"


@dataclass(frozen=True, slots=True)
class CardDef:
    """A Power card: printed data plus the hooks that make its effect."""

    id: int
    name: str
    cost: int
    kind: str
    timing: str
    hooks: dict[str, Callable[..., Any]] = field(default_factory=dict, compare=False)

    @property
    def slug(self) -> str:
        """The card's name in the text notation: lower case letters and digits only."""
        return SLUGS[self.id]


CARDS: dict[int, CardDef] = {}
SLUGS: dict[int, str] = {}
BY_SLUG: dict[str, int] = {}


def register_cards(table: list[tuple[int, str, int, str, str]]) -> None:
    """Add cards to the registry from ``(id, name, cost, kind, timing)`` rows."""
    for cid, name, cost, kind, timing in table:
        if cid in CARDS:
            raise ValueError(f"card id {cid} registered twice")
        CARDS[cid] = CardDef(cid, name, cost, kind, timing)
        base = "".join(ch for ch in name.lower() if ch.isalnum())
        slug = base
        copy = 2
        while slug in BY_SLUG:
            slug = f"{base}{copy}"
            copy += 1
        SLUGS[cid] = slug
        BY_SLUG[slug] = cid




# Copier cards (Mimic): card id -> the flag naming the card it currently copies (filled by
# ``registry.register_copier``; here so that the text notation can write a copy at its seat).
COPIERS: dict[int, str] = {}


def card_by_name(name: str) -> int:
    """The id of the card with this printed name (``"Battery Monster"``) or notation name
    (``"batterymonster"``); case and punctuation do not matter. A name two cards share
    (Extra Head) gives the first; the notation names the second ``extrahead2``.

    :raises ValueError: for a name no card has, saying what was expected.
    """
    slug = "".join(ch for ch in name.lower() if ch.isalnum())
    found = BY_SLUG.get(slug)
    if found is None:
        raise ValueError(f"expected the name of a Power card, like 'Battery Monster', found {name!r}")
    return found


def base_deck() -> tuple[int, ...]:
    """The ids of the base game's 66 Power cards, in id order."""
    return tuple(sorted(c for c in CARDS if c < 200))
