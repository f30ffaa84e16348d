"""A monster's Power Up! hand as a view shows it: the cards to their owner, a count to the others.

A view shows only what its seat's replica knows. Another seat's hand is ``HIDDEN`` there, so a
view could not show its cards even by mistake; it says how many there are, which every replica
knows.
"""

from __future__ import annotations

from kotp2p import rules


def hand_words(state: rules.State, seat: int, me: int | None) -> str:
    """``"in hand: Alien Scourge, Mega Purr"`` for the view's own seat, ``"2 Evolutions in
    hand"`` for another, and "" when the hand is empty or the game has no Evolutions."""
    hand = rules.hand_of(state, seat)
    if not hand:
        return ""
    if seat == me and all(card != rules.HIDDEN for _, card in hand):
        return "in hand: " + ", ".join(rules.card_name(card) for _, card in hand)
    return f"{len(hand)} Evolution{'s' if len(hand) > 1 else ''} in hand"


def evolution_answer(state: rules.State, ask: str) -> rules.Action | None:
    """The answer given for the player at a window where Evolutions may be played, or None to
    ask them. ``ask`` is ``"always"``, ``"playable"`` (only with a card playable now) or
    ``"never"``. The choice stays on this machine: the answer is a pass like any other."""
    pending = state.pending
    if ask == "always" or not isinstance(pending, rules.Decision) or pending.kind != "evolution":
        return None
    legal = rules.legal_actions(state)
    if ask == "never" or all(a == rules.PASS for a in legal):
        return rules.PASS if rules.PASS in legal else None
    return None


ASK_EVOLUTIONS = ("always", "playable", "never")
"""When the player is asked at a window where Evolutions may be played."""
ASK_WORDS = {"always": "at every window", "playable": "only with a card playable now",
             "never": "never: the game passes for you"}
"""Each setting in words."""


class EvolutionAsk:
    """The player's standing answer at windows where Evolutions may be played, for the session.

    ``ask`` may change during the game, as the options page changes it."""

    def __init__(self, ask: str = "playable") -> None:
        self.ask = ask

    def __call__(self, state: object) -> list[object] | None:
        """The action in wire form, or None to ask the player."""
        if not isinstance(state, rules.State):
            return None
        answer = evolution_answer(state, self.ask)
        return None if answer is None else rules.action_to_wire(answer)
