"""Helpers for scenario tests: answer random events by hand, in the words of the rules."""

from __future__ import annotations

import random

from kotp2p import rules
from kotp2p.bots import Bot
from kotp2p.rules.registry import BY_SLUG


def roll(state: rules.State, faces: str) -> rules.State:
    """Answer the pending dice roll with these faces (``'123ehs'``)."""
    p = state.pending
    assert isinstance(p, rules.RandomRequest), f"expected a roll to be pending, found {p}"
    values = rules.parse_dice(faces)
    assert len(values) == len(p.bounds), f"the roll wants {len(p.bounds)} dice, got {faces!r}"
    return rules.apply(state, rules.RandomResult(values))


def draw(state: rules.State, card: str) -> rules.State:
    """Answer the pending card draw by revealing ``card`` (a slug like ``'heal'``)."""
    p = state.pending
    assert isinstance(p, rules.RandomRequest) and len(p.bounds) == 1, f"expected a draw, found {p}"
    return rules.apply(state, rules.RandomResult((state.deck.index(BY_SLUG[card]),)))


def card(slug: str) -> int:
    """A card id from its slug."""
    return BY_SLUG[slug]


def act(state: rules.State, *actions: rules.Action) -> rules.State:
    """Apply each action in turn."""
    for a in actions:
        state = rules.apply(state, a)
    return state


def asked(state: rules.State) -> tuple[int, str] | None:
    """``(seat, kind)`` of the pending decision, or None."""
    p = state.pending
    return (p.seat, p.kind) if isinstance(p, rules.Decision) else None


def past_wounds(state: rules.State) -> rules.State:
    """``state`` once every monster asked at the window before losing ♥ passed."""
    while rules.window_of(state) == "wounded":
        state = rules.apply(state, rules.PASS)
    return state


def finish_turn(state: rules.State) -> rules.State:
    """Decline everything until the next turn's first roll is pending (or the game ends)."""
    turn = state.turn
    while not state.is_over:
        p = state.pending
        if isinstance(p, rules.RandomRequest):
            if state.turn != turn and all(b == 6 for b in p.bounds):
                return state
            raise AssertionError(f"unexpected random event while finishing the turn: {p}")
        legal = rules.legal_actions(state)
        for choice in (rules.STOP, rules.DONE, rules.STAY, rules.PASS):
            # Field-less actions compare equal as tuples: match the type, not the value.
            if any(type(a) is type(choice) for a in legal):
                state = rules.apply(state, choice)
                break
        else:
            raise AssertionError(f"no neutral choice among {legal}")
    return state


def random_input(state: rules.State, rng: random.Random) -> rules.Action:
    """A uniformly random next input for an unfinished game: the outcome of the pending random
    event, or one of the legal actions of the pending decision."""
    p = state.pending
    if isinstance(p, rules.RandomRequest):
        return rules.RandomResult(tuple(rng.randrange(b) for b in p.bounds))
    legal = rules.legal_actions(state)
    return legal[rng.randrange(len(legal))]


def bots_play(state: rules.State, bots: list[Bot], rng: random.Random,
              limit: int = 5000) -> rules.State:
    """``state`` after at most ``limit`` inputs: each decision by its seat's bot, each random
    event from ``rng``."""
    for _ in range(limit):
        if state.is_over:
            break
        p = state.pending
        if isinstance(p, rules.RandomRequest):
            state = rules.apply(state, rules.RandomResult(tuple(rng.randrange(b)
                                                                for b in p.bounds)))
        else:
            assert isinstance(p, rules.Decision)
            state = rules.apply(state, bots[p.seat].choose(state))
    return state
