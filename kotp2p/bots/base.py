"""The bot interface and the factory."""

from __future__ import annotations

from typing import Protocol

from kotp2p import rules

BOT_KINDS = ("random", "greedy")


def bot_name(number: int) -> str:
    """The name a program gives its ``number``-th bot: ``Bot 1``. Short, so that it fits the
    player table at 80 columns; the level is said where there is room for it (the lobby says
    "bot greedy hosted by ...")."""
    return f"Bot {number}"


class Bot(Protocol):
    """A strategy: chooses one of ``rules.legal_actions(state)``."""

    name: str

    def choose(self, state: rules.State) -> rules.Action:
        """A legal action for the pending decision of ``state``."""
        ...


def make_bot(kind: str, seed: int = 0) -> Bot:
    """A bot of ``kind`` (one of ``BOT_KINDS``), seeded where it uses chance.

    :raises ValueError: for an unknown kind, naming the known ones.
    """
    from kotp2p.bots.greedy import GreedyBot
    from kotp2p.bots.randombot import RandomBot

    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed)
    raise ValueError(f"expected a bot kind among {', '.join(BOT_KINDS)}, found {kind!r}")
