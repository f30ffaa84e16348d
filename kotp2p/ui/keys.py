"""Which key makes which decision.

The keys depend only on the state and the engine's legal actions.

Theory of operation
-------------------
The engine says what is legal, through :func:`rules.legal_actions`. This module only gives each
legal action a key a player would guess:

* Roll: the digits toggle a die's keep mark. That mark is a UI selection, not an action. ``r``
  re-rolls the dice not kept. Enter stops and resolves.
* Yield: ``y`` yields Tokyo, ``s`` stays.
* Buy: ``1``-``3`` buy the card in that market slot, ``w`` sweeps, Enter is done.
* Enter passes wherever passing is legal.
* Every other legal action gets a letter from :data:`MENU_KEYS`. These are card reactions,
  Opportunist, Mimic targets and every card that asks something. The screen lists them in the
  engine's own words.

:func:`explain` says why a key does nothing, in the words a player needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kotp2p import rules

MENU_KEYS = "abcdefghijlmptuvxz"
"""Letters for menu choices, in order. The first ten run without gaps.

While a question lists them, its letters come before the keys c chat, e eject, h hint and i
read a card, so the footer hides those it takes. From the eleventh on they skip the other
command keys: k cards, n skip buying, o options, q quit, r re-roll, s stay, w sweep and y yield.
"""
SHADOWED = "ceih"
"""The command keys a menu letter may take while a question lists it."""

PRICES = {"Stretchy": " (pay 2⚡)", "Plot Twist": " (then discard it)"}
"""What changing a die costs with these cards, said after the choice."""

Group = tuple[int, int]
"""A card and a die: the choices that change that die with that card, one per face."""


@dataclass(frozen=True)
class Choice:
    """A key, a short label for the footer or menu, and the action it submits.

    A choice that ``opens`` a group submits nothing: its key lists the group's choices."""

    key: str
    label: str
    action: rules.Action
    opens: Group | None = None


def group_of(state: rules.State, action: rules.Action) -> Group | None:
    """The group of a choice that changes a die to a face with a card, such as Stretchy."""
    d = decision(state)
    if d is not None and d.kind == "change" and isinstance(action, rules.UseCard) \
            and len(action.args) == 2:
        return action.card, action.args[0]
    return None


def group_label(state: rules.State, group: Group) -> str:
    """What a group's letter offers: ``change die 3 (2) with Stretchy (pay 2⚡): pick the face``."""
    card, i = group
    name = rules.card_name(card) if card in rules.CARDS else "a card"
    return f"change {die(state, i)} with {name}{PRICES.get(name, '')}: pick the face next"


def decision(state: rules.State) -> rules.Decision | None:
    """The decision pending in ``state``, if a player must decide."""
    pending = state.pending
    return pending if isinstance(pending, rules.Decision) else None


def may_reroll(state: rules.State, legal: Sequence[rules.Action] | None = None) -> bool:
    """True if the pending decision is a roll that may still re-roll dice.

    A roll with no re-roll left may still ask a card question, such as Background Dweller's.
    ``legal`` are the state's legal actions, when the caller has them."""
    d = decision(state)
    if d is None or d.kind != "roll":
        return False
    return any(isinstance(a, rules.Reroll)
               for a in (rules.legal_actions(state) if legal is None else legal))


def reroll_for(state: rules.State, kept: frozenset[int]) -> rules.Reroll:
    """The re-roll of every die not marked kept."""
    return rules.Reroll(tuple(i for i in range(len(state.dice)) if i not in kept))


def choices(state: rules.State, group: Group | None = None) -> list[Choice]:
    """Every legal action of the pending decision with its key, except the re-rolls.

    The re-rolls are made with the dice keys and ``r``. Changing a die to a face with a card
    would give up to 40 choices, more than there are letters. So each card and die gets one
    letter, which opens its ``group``: then the faces alone are listed.
    """
    d = decision(state)
    if d is None:
        return []
    out: list[Choice] = []
    menu = iter(MENU_KEYS)
    opened: set[Group] = set()
    for action in rules.legal_actions(state):
        if isinstance(action, rules.Reroll):
            continue
        of = group_of(state, action)
        if group is not None:
            key = next(menu, None) if of == group else None
            if key is not None:
                out.append(Choice(key, menu_label(state, action, ""), action))
            continue
        if of is not None:
            key = next(menu, None) if of not in opened else None
            if key is not None:
                opened.add(of)
                out.append(Choice(key, group_label(state, of), action, opens=of))
            continue
        label = rules.describe_action(state, action)
        if isinstance(action, rules.Stop):
            out.append(Choice("enter", "resolve the dice", action))
        elif isinstance(action, rules.Yield):
            out.append(Choice("y", "yield Tokyo", action))
        elif isinstance(action, rules.Stay):
            out.append(Choice("s", "stay in Tokyo", action))
        elif isinstance(action, rules.Done):
            out.append(Choice("enter", "done", action))
        elif isinstance(action, rules.Pass):
            out.append(Choice("enter", "pass", action))
        elif isinstance(action, rules.Sweep):
            out.append(Choice("w", "sweep the market (2⚡)", action))
        elif (isinstance(action, rules.Buy) and d.kind == "buy"
              and action.card in state.market):
            slot = state.market.index(action.card)
            out.append(Choice(str(slot + 1), f"buy {rules.card_name(action.card)}", action))
        else:
            key = next(menu, None)
            if key is not None:
                out.append(Choice(key, menu_label(state, action, label), action))
    return out


def die(state: rules.State, i: int) -> str:
    """Die ``i`` as the screen numbers it, from 1, and its face: ``die 3 (✸)``."""
    face = rules.SYMBOLS.faces[state.dice[i]] if 0 <= i < len(state.dice) else "?"
    return f"die {i + 1} ({face})"


def menu_label(state: rules.State, action: rules.Action, said: str) -> str:
    """A card question's choice in a player's words; ``said`` is the engine's description.

    A die is named from 1 with its face, and a card's price or effect is said where it matters.
    """
    d = decision(state)
    kind = d.kind if d is not None else ""
    if kind == "steal" and d is not None and isinstance(action, rules.Buy):
        told = said.removeprefix(state.monsters[d.seat] + " takes ")
        return f"take {told} (you have {rules.SYMBOLS.energies(state.energy[d.seat])})"
    if not isinstance(action, rules.UseCard):
        return said
    name = rules.card_name(action.card) if action.card in rules.CARDS else "a card"
    args = action.args
    g = rules.SYMBOLS
    if kind == "mimic" and len(args) == 1 and args[0] in rules.CARDS:
        return f"copy {rules.card_name(args[0])} with {name}"
    if kind == "witch" and len(args) == 1:
        return f"re-roll {die(state, args[0])} of {state.monsters[state.active]} with {name}"
    if kind == "react" and name == "Robot" and len(args) == 1:
        return f"pay {g.energies(args[0])} instead of {g.hearts(args[0])} with {name}"
    if kind == "costume":
        return f"keep {name}: {rules.card_text(action.card)}"
    if kind == "cheer":
        return f"cheer for {state.monsters[state.active]}: its roll gets 1 more ✸"
    if kind == "hearts" and len(args) == 1:
        n = args[0]
        return f"spend {g.hearts(n)} to remove {n} {name} token{'s' if n != 1 else ''}"
    if kind in ("roll", "change", "probe") and len(args) == 1:
        if kind == "probe":
            return (f"re-roll {die(state, args[0])} of {state.monsters[state.active]} with {name}"
                    " (a ♥ discards it)")
        if name == "Herd Culler":
            return f"turn {die(state, args[0])} into a 1 with {name} (once a turn)"
        if name == "Background Dweller":
            return f"re-roll {die(state, args[0])} with {name}"
        return f"use {name} on {die(state, args[0])}"
    if kind == "change" and len(args) == 2 and 0 <= args[1] < len(g.faces):
        return f"change {die(state, args[0])} to {g.faces[args[1]]} with {name}{PRICES.get(name, '')}"
    if not args:  # What the card does, such as Rapid Healing's price and gain.
        return f"use {name}: {rules.card_text(action.card)}"
    return said


def menu_choices(state: rules.State, group: Group | None = None) -> list[Choice]:
    """The choices with a letter of :data:`MENU_KEYS`. The screen shows them as a list."""
    return [c for c in choices(state, group) if c.key in MENU_KEYS]


def action_for(state: rules.State, key: str, kept: frozenset[int],
               group: Group | None = None) -> rules.Action | None:
    """The action ``key`` submits now, or None if it submits nothing.

    A key that opens a group submits nothing."""
    d = decision(state)
    if d is None:
        return None
    if key == "r" and d.kind == "roll" and group is None:
        action = reroll_for(state, kept)
        return action if action in rules.legal_actions(state) else None
    for c in choices(state, group):
        if c.key == key:
            return c.action if c.opens is None else None
    return None


def explain(state: rules.State, key: str, kept: frozenset[int], me: int) -> str:
    """Why ``key`` does nothing now, and what would."""
    d = decision(state)
    legal = rules.legal_actions(state)
    if d is None:
        return "nothing to decide right now"
    if d.seat != me:
        return f"it is {state.monsters[d.seat]}'s decision, not yours"
    rolling = may_reroll(state, legal)
    if key == "r" and d.kind == "roll":
        if not rolling:
            return "no re-roll left: press Enter to resolve"
        if len(kept) == len(state.dice):
            return "every die is kept: unmark one (the key under it) or press Enter to resolve"
        return "that re-roll is not allowed now"
    if key.isdigit():
        n = int(key)
        if d.kind == "roll" and not rolling:
            return "no re-roll left, so no die to keep: choose above or press Enter to resolve"
        if d.kind == "roll":
            return f"there is no die {n}: the dice are 1 to {len(state.dice)}"
        if d.kind == "buy":
            if not 1 <= n <= len(state.market) or not state.market[n - 1]:
                return f"market slot {n} holds no card"
            card = state.market[n - 1]
            cost = rules.card_cost(state, me, card)
            if cost > state.energy[me]:
                return (f"{rules.card_name(card)} costs {cost}⚡ and you have "
                        f"{state.energy[me]}⚡")
            return f"you cannot buy {rules.card_name(card)} now"
    if key == "w" and d.kind == "buy":
        return f"sweeping costs 2⚡ and you have {state.energy[me]}⚡"
    if key in ("y", "s") and d.kind != "yield":
        return "nobody asks you to yield Tokyo now"
    keys = sorted({c.key for c in choices(state)} | ({"r"} if rolling else set()))
    names = ", ".join("Enter" if k == "enter" else k for k in keys)
    if rolling and state.dice:
        names = f"1-{len(state.dice)} (keep a die), {names}"
    return f"{key_name(key)} does nothing here; the keys now: {names}"


def asked(kind: str) -> str:
    """What a decision of ``kind`` asks, in a player's words: ``stay in Tokyo or yield``."""
    return {"roll": "roll", "yield": "stay in Tokyo or yield", "buy": "buy",
            "react": "react to damage", "hearts": "use hearts", "change": "use a card on your dice",
            "probe": "re-roll a die", "opportunist": "Opportunist", "lab": "Made in a Lab",
            "sell": "sell a card", "mimic": "pick Mimic's target", "costume": "keep a costume",
            "steal": "take costumes from the monsters you wounded", "witch": "Witch",
            "cheer": "Cheerleader"}.get(kind, kind)


def key_name(key: str) -> str:
    """A key as a player reads it."""
    return {"enter": "Enter", "escape": "Esc", " ": "Space", "c-c": "Ctrl-C", "pageup": "PgUp",
            "pagedown": "PgDn"}.get(key, key)
