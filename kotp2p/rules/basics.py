"""The constants and small types every engine module shares.

They are places, seats, the phases of a turn and the shape of a stack frame. This module imports
nothing, so any module may import it."""

from __future__ import annotations

from typing import Any

# A frame is a flat tuple ``(op, arg, ...)`` of strings and ints. It is typed loosely so that the
# hot paths read its fields without casts.
Frame = tuple[Any, ...]

OUTSIDE, CITY, BAY = 0, 1, 2
NOBODY = -1
HIDDEN = -1  # the content of a hidden slot, on every replica but its owner's
HALLOWEEN_FLAG = "halloween"  # the flag, set to 1, of a game played with Halloween
POWER_UP_FLAG = "powerup"  # the flag, set to 1, of a game played with Power Up!

MONSTERS: tuple[str, ...] = (
    "Alienoid",
    "Cyber Kitty",
    "Giga Zaur",
    "Meka Dragon",
    "Space Penguin",
    "The King",
    "Boogie Woogie",
    "Pumpkin Jack",
    "King Kong",
    "Pandakaï",
    "Cyber Bunny",
    "Kraken",
)
"""The monsters a seat may play: the base box's six, Halloween's two, then the four others of
the Monster Box. Any game may use them. Outside Power Up! a monster is only a name."""
MIN_PLAYERS = 2
MAX_PLAYERS = 6

MARKET_SLOTS = 3

# The phases of a turn, in order. A ``("turn", i)`` frame resumes the turn at phase ``i``. The
# turn interpreter pairs each name with its function. The notation writes frames by these names.
PHASE_NAMES: tuple[str, ...] = (
    "start",
    "roll",
    "final_roll",
    "resolve",
    "smash",
    "yields",
    "buy",
    "after_buy",
    "end_turn",
    "next_turn",
)
PHASE_INDEX: dict[str, int] = {name: i for i, name in enumerate(PHASE_NAMES)}

# The engine's shortcuts for its most frequent paths, in ``machine``. Tests turn them off and
# check that every state stays the same.
SHORTCUTS = True
