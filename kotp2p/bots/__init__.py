"""Bots: strategies that choose an action for the pending decision from the state alone.

``make_bot(kind, seed)`` builds one. ``bot.choose(state)`` returns a legal action for
``state.pending``, which must be a decision.
"""

from kotp2p.bots.base import BOT_KINDS, Bot, bot_name, make_bot
from kotp2p.bots.greedy import GreedyBot
from kotp2p.bots.hard import PLAYOUTS
from kotp2p.bots.hint import hint
from kotp2p.bots.randombot import RandomBot

__all__ = ["BOT_KINDS", "PLAYOUTS", "Bot", "GreedyBot", "RandomBot", "bot_name", "hint",
           "make_bot"]
