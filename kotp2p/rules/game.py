"""Setting up a game: monsters, options, the starting state, the engine id."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from kotp2p import __version__
from kotp2p.rules import (
    cards_costume,
    cards_evolution_base,
    cards_evolution_box,
    evomarket,
    halloween,
    market,
    powerup,
)
from kotp2p.rules.basics import HALLOWEEN_FLAG, MAX_PLAYERS, MIN_PLAYERS, MONSTERS, NOBODY
from kotp2p.rules.card import BASE, HALLOWEEN, POWER_UP
from kotp2p.rules.cardindex import base_deck
from kotp2p.rules.cardlist import ALL_CARDS
from kotp2p.rules.dice import MAX_DICE
from kotp2p.rules.errors import InvalidState
from kotp2p.rules.hookorder import RULED_ORDER
from kotp2p.rules.machine import run
from kotp2p.rules.registry import DECISIONS, RANDOMS, STEPS
from kotp2p.rules.state import State
from kotp2p.rules.turn import TURN_PHASES

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MONSTERS",
    "RULES_REVISION",
    "Options",
    "Setup",
    "engine_id",
    "new_game",
]

RULES_REVISION = 2
"""Bumped by every change that makes the engine play any game differently.

Such a change fixes a ruling, or changes an order of effects or of legal actions. Builds which
would disagree then refuse each other at the handshake. They do not convict an honest peer of a
wrong state hash. The card tables and the turn's shape are hashed into :func:`engine_id` as well,
but code is not. So ``tests/rules/test_engine_revision.py`` pins a digest of seeded games to each
revision. It fails when the games change while the revision does not."""


@dataclass(frozen=True, slots=True)
class Options:
    """Game options. ``two_player_variant``: ``None`` means on exactly when 2 players start.

    ``halloween`` adds the Halloween expansion: Costume cards and stealing them. ``power_up``
    adds Power Up!: each monster's own deck of Evolution cards, in a hand nobody else sees."""

    two_player_variant: bool | None = None
    halloween: bool = False
    power_up: bool = False


@dataclass(frozen=True, slots=True)
class Setup:
    """Who plays, one monster per seat in clockwise seat order, and the options."""

    monsters: tuple[str, ...]
    options: Options = field(default_factory=Options)


def new_game(setup: Setup) -> State:
    """The state before the first-player roll-off, which is pending.

    :raises InvalidState: for fewer than 2 or more than 6 monsters, an unknown or repeated one.
    """
    monsters = tuple(setup.monsters)
    n = len(monsters)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidState(f"expected {MIN_PLAYERS} to {MAX_PLAYERS} monsters, found {n}")
    for m in monsters:
        if m not in MONSTERS:
            raise InvalidState(f"expected a monster among {', '.join(MONSTERS)}, found {m!r}")
    if len(set(monsters)) != n:
        raise InvalidState("expected every seat to play a different monster")
    variant = setup.options.two_player_variant
    s = State.__new__(State)
    s.n = n
    s.monsters = monsters
    s.two_player = (n == 2) if variant is None else bool(variant)
    s.hp = [10] * n
    s.stars = [0] * n
    s.energy = [0] * n
    s.alive = (True,) * n
    s.elim = (0,) * n
    s.cards = ((),) * n
    s.poison = [0] * n
    s.shrink = [0] * n
    s.city = NOBODY
    s.bay = NOBODY
    s.active = 0
    s.rotation = 0
    s.extra = ()
    s.turn = 0
    s.dice = ()
    s.rolls_left = 0
    s.market = (0, 0, 0)
    s.deck = base_deck()
    s.discard = ()
    s.k = 0
    s.tokens = {}
    s.slots = {}
    s.flags = {}
    s.stack = [("start",)]
    if setup.options.power_up:
        powerup.setup(s)
    if setup.options.halloween:
        s.flags[HALLOWEEN_FLAG] = 1
        s.stack.extend(halloween.setup_frames(n))
    s.pending = None
    s.legal = ()
    s.sink = None
    s.over = False
    s.winners = ()
    run(s)
    return s


_BOX_FRAMES = {
    HALLOWEEN: (halloween.FRAMES, cards_costume.FRAMES),
    POWER_UP: (powerup.FRAMES, market.POWER_UP_FRAMES, cards_evolution_base.FRAMES,
               cards_evolution_box.FRAMES, evomarket.FRAMES),
}
"""The kinds of frames only an expansion's games use, by box."""


def engine_id(options: Options | None = None) -> str:
    """The package version plus a hash of what fixes how games play.

    The hash covers the card tables, the turn's phases, and the kinds of steps, decisions and
    random events. It also covers which random events are private. Equal engines agree on every
    game. Peers with different ids cannot play together. An expansion's cards and frames count
    only when ``options`` turn it on, so a base game's id stays what it was before the
    expansion came."""
    boxes = {BASE}
    if options is not None and options.halloween:
        boxes.add(HALLOWEEN)
    if options is not None and options.power_up:
        boxes.add(POWER_UP)
    others = [f for box, frames in _BOX_FRAMES.items() if box not in boxes for f in frames]
    steps = sorted(set(STEPS) - {k for f in others for k in f.steps})
    decisions = sorted(set(DECISIONS) - {k for f in others for k in f.decisions})
    randoms = {k: r for k, r in RANDOMS.items() if not any(k in f.randoms for f in others)}
    h = hashlib.sha256()
    h.update(f"revision|{RULES_REVISION}|dice|{MAX_DICE}|order|{sorted(RULED_ORDER.items())}\n".encode())
    for c in sorted(ALL_CARDS, key=lambda card: card.id):
        if c.box in boxes:
            windows = f"|{list(c.windows)}" if c.windows else ""
            h.update(f"{c.id}|{c.name}|{c.cost}|{c.kind}|{sorted(c.hooks)}{windows}\n".encode())
    h.update(f"phases|{[name for name, _ in TURN_PHASES]}\n".encode())
    h.update(f"steps|{steps}|decisions|{decisions}\n".encode())
    h.update(f"randoms|{sorted((k, r.private is not None) for k, r in randoms.items())}\n".encode())
    if HALLOWEEN in boxes:
        h.update(b"options|halloween\n")
    if POWER_UP in boxes:
        h.update(b"options|power up\n")
    return f"kotp2p-{__version__}-{h.hexdigest()[:16]}"
