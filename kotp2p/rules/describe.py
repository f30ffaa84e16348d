"""Plain-text descriptions of actions and states, for logs, replays and bots' explanations."""

from __future__ import annotations

from kotp2p.rules.actions import (
    Action,
    Buy,
    Done,
    Pass,
    RandomResult,
    Reroll,
    Stay,
    Stop,
    Sweep,
    UseCard,
    Yield,
)
from kotp2p.rules.actiontext import drawn_card, rolls_dice
from kotp2p.rules.dice import format_dice
from kotp2p.rules.registry import CARDS, TOKEN_CARDS
from kotp2p.rules.state import Decision, State


def card_name(card: int) -> str:
    """The printed name of a card id."""
    return CARDS[card].name


def describe_action(state: State, action: Action) -> str:
    """One line saying what ``action`` does in ``state`` (the state it is applied to)."""
    pending = state.pending
    who = ""
    if isinstance(pending, Decision):
        who = f"{state.monsters[pending.seat]} "
    if isinstance(action, RandomResult):
        if rolls_dice(state, action.values):
            return f"dice: {format_dice(action.values)}"
        card = drawn_card(state, action.values)
        if card is not None:
            return f"revealed {card_name(card)}"
        return f"random values {list(action.values)}"
    if isinstance(action, Reroll):
        kept = [i for i in range(len(state.dice)) if i not in action.dice]
        keep = format_dice(tuple(state.dice[i] for i in kept)) or "nothing"
        return f"{who}keeps {keep} and re-rolls {len(action.dice)} dice"
    if isinstance(action, Stop):
        return f"{who}stops rolling with {format_dice(state.dice)}"
    if isinstance(action, Yield):
        return f"{who}yields Tokyo"
    if isinstance(action, Stay):
        return f"{who}stays in Tokyo"
    if isinstance(action, Buy):
        return f"{who}buys {card_name(action.card)}"
    if isinstance(action, Sweep):
        return f"{who}pays 2 energy to sweep the market"
    if isinstance(action, Done):
        return f"{who}is done"
    if isinstance(action, UseCard):
        if isinstance(pending, Decision) and pending.kind == "hearts":
            for token, card in TOKEN_CARDS.items():
                if card == action.card and action.args:
                    return f"{who}spends {action.args[0]} heart(s) to remove {token} token(s)"
        args = f" ({', '.join(map(str, action.args))})" if action.args else ""
        return f"{who}uses {card_name(action.card)}{args}"
    if isinstance(action, Pass):
        return f"{who}passes"
    return repr(action)
