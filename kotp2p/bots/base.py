"""The bot interface and the table of levels.

A new bot is a module with a class that has ``name`` and ``choose``, and one line in
:data:`LEVELS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from kotp2p import rules
from kotp2p.bots.greedy import GreedyBot
from kotp2p.bots.hard import HardBot
from kotp2p.bots.randombot import RandomBot


def bot_name(number: int) -> str:
    """The name a program gives its ``number``-th bot: ``Bot 1``.

    It is short, so that it fits the player table at 80 columns. The level is said where there is
    room for it: the lobby says "bot greedy hosted by ..."."""
    return f"Bot {number}"


class Bot(Protocol):
    """A strategy: chooses one of ``rules.legal_actions(state)``."""

    name: str

    def choose(self, state: rules.State) -> rules.Action:
        """A legal action for the pending decision of ``state``."""
        ...


LEVELS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "hard": HardBot,
}
"""Each bot level and how to make one from a seed, weakest first."""

BOT_KINDS = tuple(LEVELS)
"""The names of the bot levels, weakest first."""


def make_bot(kind: str, seed: int = 0, playouts: int | None = None) -> Bot:
    """A bot of level ``kind``, seeded where it uses chance. ``playouts`` sets the games a
    searching bot plays out for each choice, where it is given.

    :raises ValueError: for an unknown kind, naming the known ones.
    """
    make = LEVELS.get(kind)
    if make is not None:
        bot = make(seed)
        if playouts is not None and isinstance(bot, HardBot):
            bot.playouts = playouts
        return bot
    raise ValueError(f"expected a bot kind among {', '.join(BOT_KINDS)}, found {kind!r}")
