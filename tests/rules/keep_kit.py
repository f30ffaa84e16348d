"""Helpers for the Keep card scenarios (on top of ``kit``)."""

from __future__ import annotations

from kotp2p import rules
from tests.rules.kit import card

# Field-less actions are empty named tuples, which all compare equal (Stop() == Done()): pick
# the neutral choice by its type.
_NEUTRAL = (rules.Stop, rules.Done, rules.Stay, rules.Pass)


def neutral(state: rules.State) -> rules.Action:
    """The do-nothing choice of the pending decision (stop, done, stay, pass)."""
    legal = rules.legal_actions(state)
    for kind in _NEUTRAL:
        for a in legal:
            if type(a) is kind:
                return a
    raise AssertionError(f"no neutral choice among {legal}")


def finish_turn(state: rules.State) -> rules.State:
    """Decline everything until a turn's first roll is pending (or the game ends); a state
    already there is returned as it is."""
    while not state.is_over:
        p = state.pending
        if isinstance(p, rules.RandomRequest):
            if not state.dice and all(b == 6 for b in p.bounds):
                return state
            raise AssertionError(f"unexpected random event while finishing the turn: {p}")
        state = rules.apply(state, neutral(state))
    return state


def use(slug: str, *args: int) -> rules.UseCard:
    """``UseCard`` of the card named ``slug`` with these arguments."""
    return rules.UseCard(card(slug), tuple(args))
