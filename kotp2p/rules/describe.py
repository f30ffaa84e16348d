"""Plain-text descriptions of actions, for logs, replays and bots' explanations.

A description says what the player chose. The events ``apply`` reports say what came of it.
Where both say the same thing, as for a purchase or a yield, they use the same words. Views then
print only the events. The ``kotp2p.rules`` docstring gives the rule.
"""

from __future__ import annotations

from kotp2p.rules.actions import (
    Action,
    Buy,
    Done,
    KeepEvolution,
    Pass,
    PlayEvolution,
    RandomResult,
    Reroll,
    Stay,
    Stop,
    Sweep,
    UseCard,
    Yield,
)
from kotp2p.rules.actiontext import drawn_card, rolls_dice
from kotp2p.rules.basics import HIDDEN
from kotp2p.rules.effects import card_cost
from kotp2p.rules.eventtext import yield_words
from kotp2p.rules.evoeffects import ANSWER_WORDS, GIVES, LOSE_ONE, LOSE_TWO
from kotp2p.rules.evomarket import purchase_price
from kotp2p.rules.evoslots import known_card
from kotp2p.rules.glyphs import SYMBOLS
from kotp2p.rules.market import SWEEP_COST
from kotp2p.rules.registry import CARDS, TOKEN_CARDS
from kotp2p.rules.state import Decision, State


def card_name(card: int) -> str:
    """The printed name of a card id."""
    return CARDS[card].name


def card_text(card: int) -> str:
    """What a card does, in plain words, as the screen shows it. It is "" for an unknown id."""
    found = CARDS.get(card)
    return found.text if found is not None else ""


def describe_action(state: State, action: Action) -> str:
    """One line saying what ``action`` does in ``state``, the state it is applied to."""
    pending = state.pending
    who = ""
    seat = -1
    if isinstance(pending, Decision):
        seat = pending.seat
        who = f"{state.monsters[seat]} "
    g = SYMBOLS
    if isinstance(action, RandomResult):
        if rolls_dice(state, action.values):
            return f"dice: {g.dice(action.values)}"
        card = drawn_card(state, action.values)
        if card is not None:
            return f"revealed {card_name(card)}"
        return f"random values {list(action.values)}"
    if isinstance(action, Reroll):
        kept = [i for i in range(len(state.dice)) if i not in action.dice]
        keep = g.dice(tuple(state.dice[i] for i in kept)) or "nothing"
        n = len(action.dice)
        return f"{who}keeps {keep} and re-rolls {n} {'die' if n == 1 else 'dice'}"
    if isinstance(action, Stop):
        return f"{who}stops rolling with {g.dice(state.dice)}"
    if isinstance(action, Yield | Stay):
        place = "Tokyo City" if state.city == seat else "Tokyo Bay"
        if isinstance(action, Yield) and seat >= 0:
            return yield_words(state, seat, place)
        return f"{who}{'yields' if isinstance(action, Yield) else 'stays in'} {place}"
    kind = pending.kind if isinstance(pending, Decision) else ""
    if isinstance(action, Buy) and kind == "steal":
        owner = next((t for t in range(state.n) if action.card in state.cards[t]), -1)
        price = g.energies(card_cost(state, seat, action.card))
        whose = f" from {state.monsters[owner]}" if owner >= 0 else ""
        return f"{who}takes {card_name(action.card)}{whose} for {price}"
    if isinstance(action, UseCard) and kind == "costume":
        return f"{who}keeps {card_name(action.card)}"
    if isinstance(action, Done) and kind == "steal":
        return f"{who}takes no more costumes"
    if isinstance(action, Done) and kind == "hearts":
        return f"{who}spends no {g.heart[1]} on tokens"
    if isinstance(action, Buy):
        if seat >= 0:
            price = g.energies(card_cost(state, seat, action.card))
            return f"{who}buys {card_name(action.card)} for {price}"
        return f"buys {card_name(action.card)}"
    if isinstance(action, Sweep):
        return f"{who}pays {g.energies(SWEEP_COST)} to sweep the market"
    if isinstance(action, Done):
        if isinstance(pending, Decision) and pending.kind == "buy":
            # The state does not keep whether a card was bought this turn, so these words fit both.
            return f"{who}is done buying"
        return f"{who}is done"
    if isinstance(action, UseCard) and kind == "target" and action.args:
        return (f"{who}gives {state.monsters[action.args[0]]} the Target token "
                f"({card_name(action.card)})")
    if isinstance(action, UseCard) and kind == "gift" and action.args:
        return f"{who}gives {card_name(action.card)} to {state.monsters[action.args[0]]}"
    paid = purchase_price(state, seat, action) if isinstance(action, UseCard) else None
    if isinstance(action, UseCard) and paid is not None:
        return (f"{who}buys {card_name(action.args[0])} for {g.energies(paid)} "
                f"({card_name(action.card)})")
    if isinstance(action, UseCard) and kind == "food" and action.args:
        return (f"{who}makes {state.monsters[action.args[0]]} lose 2♥ fewer and takes 1★ and 1⚡ "
                f"from it ({card_name(action.card)})")
    if isinstance(action, UseCard) and kind == "thump" and action.args:
        return (f"{who}forces {state.monsters[action.args[0]]} out of Tokyo "
                f"({card_name(action.card)})")
    if isinstance(action, UseCard) and kind == "freeze" and action.args:
        frozen = state.monsters[state.active]
        return (f"{who}names {g.faces[action.args[0]]}: it does nothing for {frozen} this turn "
                f"({card_name(action.card)})")
    if isinstance(action, UseCard) and kind == "icy" and action.args:
        return f"{who}copies {card_name(action.args[0])} ({card_name(action.card)})"
    if isinstance(action, UseCard) and kind == "dive" and action.args:
        seen = state.slots.get(action.args[0], HIDDEN)
        what = "a card it looked at" if seen == HIDDEN else card_name(seen)
        return f"{who}puts {what} in play for free ({card_name(action.card)})"
    if isinstance(action, UseCard) and kind == "boozle" and action.args:
        buyer = state.stack[-1][3]
        return (f"{who}makes {state.monsters[buyer]} buy {card_name(action.args[0])} instead "
                f"({card_name(action.card)})")
    if isinstance(action, UseCard) and kind == "rabbit" and action.args:
        i = action.args[0]
        face = g.faces[state.dice[i]] if 0 <= i < len(state.dice) else "?"
        return (f"{who}rerolls {state.monsters[state.active]}'s die {i + 1} ({face}) "
                f"({card_name(action.card)})")
    if isinstance(action, UseCard) and kind == "saurian" and len(action.args) == 2:
        old, new = action.args
        return (f"{who}turns every {g.faces[old]} into {g.faces[new]} "
                f"({card_name(action.card)})")
    if isinstance(action, UseCard) and kind == "give" and action.args:
        x = action.args[0]
        what = ANSWER_WORDS.get(x, "?")
        done = (f"gives {state.monsters[state.stack[-1][3]]} {what}" if x in GIVES
                else f"loses {what}" if x in (LOSE_TWO, LOSE_ONE) else f"gains {what}")
        return f"{who}{done} ({card_name(action.card)})"
    if (isinstance(action, UseCard) and kind in ("roll", "change", "probe")
            and 1 <= len(action.args) <= 2 and 0 <= action.args[0] < len(state.dice)):
        i = action.args[0]
        whose = f"{state.monsters[state.active]}'s " if kind == "probe" else ""
        on = f"{whose}die {i + 1} ({g.faces[state.dice[i]]})"
        if len(action.args) == 1:
            return f"{who}uses {card_name(action.card)} on {on}"
        if 0 <= action.args[1] < len(g.faces):
            return f"{who}changes {on} to {g.faces[action.args[1]]} ({card_name(action.card)})"
    if isinstance(action, UseCard):
        if isinstance(pending, Decision) and pending.kind == "hearts":
            for token, card in TOKEN_CARDS.items():
                if card == action.card and action.args:
                    n = action.args[0]
                    return (f"{who}spends {g.hearts(n)} to remove {n} {token} "
                            f"token{'s' if n != 1 else ''}")
        args = f" ({', '.join(map(str, action.args))})" if action.args else ""
        return f"{who}uses {card_name(action.card)}{args}"
    if isinstance(action, Pass) and kind == "evodeck":
        reshuffle = state.stack[-1][3]
        return (f"{who}shuffles its Evolution discard into a new deck, face down" if reshuffle
                else f"{who}shuffles its Evolution deck, face down")
    if isinstance(action, Pass):
        return f"{who}passes"
    if isinstance(action, KeepEvolution):
        card = known_card(state, seat, action.slot) if seat >= 0 else HIDDEN
        if card == HIDDEN:  # another seat's card: nobody but its owner knows it
            return f"{who}keeps the Evolution in slot {action.slot}"
        return f"{who}keeps {card_name(card)}"
    if isinstance(action, PlayEvolution):
        return f"{who}chooses to play {card_name(action.card)}"
    return repr(action)
