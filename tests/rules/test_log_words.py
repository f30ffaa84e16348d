"""What the game log says, as a new player reads it: the buy step.

Each line is told from the state its input was applied to, as the views tell a game."""

from __future__ import annotations

from kotp2p import rules
from kotp2p.rules.describe import describe_action
from tests.rules.kit import card


def told(state: rules.State, *actions: rules.Action) -> tuple[rules.State, list[str]]:
    """Apply ``actions`` in turn; return the last state and the lines a view shows for them.

    A random draw that refills the market is answered with the first card of the deck."""
    lines: list[str] = []
    for action in actions:
        events: list[rules.Event] = []
        after = rules.apply(state, action, events=events)
        lines += [rules.describe_event(e, state) for e in events if not rules.is_minor(e)]
        state = after
        while isinstance(state.pending, rules.RandomRequest) and state.pending.purpose == rules.DRAW:
            events = []
            after = rules.apply(state, rules.RandomResult((0,)), events=events)
            lines += [rules.describe_event(e, state) for e in events if not rules.is_minor(e)]
            state = after
    return state, lines


# --- the buy step ------------------------------------------------------------------------------


def test_ending_the_buy_step_after_buying_does_not_say_buys_nothing() -> None:
    s = rules.from_text(
        "Cyber Kitty 10/0/8; The King 10/0/0 | active=0 phase=buy market=stretchy,energize,-"
    )
    s, lines = told(s, rules.Buy(card("stretchy")))
    assert lines[0] == "Cyber Kitty buys Stretchy for 3⚡"
    assert s.pending == rules.Decision(0, "buy")
    assert describe_action(s, rules.DONE) == "Cyber Kitty is done buying"
