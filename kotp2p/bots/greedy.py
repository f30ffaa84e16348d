"""A simple greedy bot that plays by one-step rules of thumb.

It keeps the dice that help now, buys the cards worth most and answers card windows. It reads only
the public state and its own seat. As the peeker, it also reads its own Made in a Lab peek. Its
choices are deterministic. The seed only breaks ties.
"""

from __future__ import annotations

import random

from kotp2p import rules
from kotp2p.rules import ENERGY, HEART, SMASH, THREE, count_faces, number_stars

_BACKGROUND_DWELLER = rules.card_by_name("Background Dweller")
_CAMOUFLAGE = rules.card_by_name("Camouflage")
_WINGS = rules.card_by_name("Wings")
_MIMIC = rules.card_by_name("Mimic")
_SMASHING_PUMPKIN = rules.card_by_name("Smashing Pumpkin")
_BAMBOO_SUPPLY = rules.card_by_name("Bamboo Supply")
_ENERGY_SWORD = rules.card_by_name("Energy Sword")


def card_worth(card: int) -> float:
    """A card's rough worth in energy, as its declaration says.

    A card is bought when it is worth at least what it costs."""
    return rules.CARDS[card].rough_worth


def _kind(state: rules.State, card: int) -> int:
    """The card whose effect ``card`` has. A copier counts as what it copies."""
    return rules.copied(state, card) or card


class GreedyBot:
    """Greedy play: good dice kept, Tokyo left when hurt, cards bought by worth."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: rules.State) -> rules.Action:
        """A legal action for the pending decision, chosen greedily."""
        legal = rules.legal_actions(state)
        if not legal:
            raise ValueError("expected a pending decision, found none")
        pending = state.pending
        assert isinstance(pending, rules.Decision)
        seat = pending.seat
        choice: rules.Action | None = None
        kind = pending.kind
        if kind == "roll":  # the most frequent decision: its answer is always among ``legal``
            return self._roll(state, seat, legal)
        if kind == "yield":
            choice = rules.YIELD if state.hp[seat] <= 5 else rules.STAY
        elif kind == "buy":
            choice = self._buy(state, seat, legal)
        elif kind == "hearts":
            choice = self._hearts(legal)
        elif kind == "change":
            choice = self._change(state, legal)
        elif kind == "react":
            choice = self._react(state, legal)
        elif kind in ("probe", "witch"):
            choice = self._probe(state, seat, legal)
        elif kind == "steal":
            choice = self._buy(state, seat, legal)
        elif kind == "costume":
            choice = max(legal, key=lambda a: card_worth(a.card) if isinstance(a, rules.UseCard)
                         else 0.0)
        elif kind == "cheer":
            # Cheer only when the extra smash cannot land on this monster.
            hit = state.in_tokyo(seat) != state.in_tokyo(state.active)
            choice = rules.PASS if hit else legal[0]
        elif kind == "mimic":
            choice = self._mimic(state, legal)
        elif kind in ("opportunist", "lab"):
            choice = self._take(state, seat, legal)
        elif kind == "evolve":
            choice = self._keep_evolution(state, seat, legal)
        elif kind == "evolution":
            choice = self._play_evolution(state, seat, legal)
        elif kind == "give":  # Mega Purr, Feast of Crows: ⚡ first, then ★, then ♥
            choice = legal[0]
        elif kind == "prepare":  # Energy Sword pays for itself with one smash; Exotic Arms may not
            sword = [a for a in legal if isinstance(a, rules.UseCard) and a.card == _ENERGY_SWORD]
            choice = sword[0] if sword else rules.PASS
        elif kind == "temple":  # Sunken Temple: skip the turn to heal when hurt
            choice = legal[0] if state.hp[seat] <= 6 else rules.PASS
        elif kind == "bamboo":  # Bamboo Supply: take the energy once there are 3
            choice = legal[-1] if state.tokens.get(_BAMBOO_SUPPLY, 0) >= 3 else legal[0]
        elif kind in ("thump", "catch", "feline", "food"):  # force out, buy, enter, take: yes
            choice = legal[0]
        elif kind == "dive":  # Deep Dive: the card worth most, of those it saw
            choice = max(legal, key=lambda a: _seen_worth(state, a))
        elif kind == "freeze":  # Freeze Ray: the frozen monster's smashes, as it sits in Tokyo
            choice = next((a for a in legal if isinstance(a, rules.UseCard)
                           and a.args == (SMASH,)), None)
        elif kind == "rabbit":  # Heart of the Rabbit: a smash of the active monster, if any
            smashes = [a for a in legal if isinstance(a, rules.UseCard)
                       and state.dice[a.args[0]] == SMASH]
            choice = smashes[0] if smashes else legal[0]
        if choice is not None and _is_legal(choice, legal):
            return choice
        return _neutral(legal) or legal[self._rng.randrange(len(legal))]

    # --- Power Up! -----------------------------------------------------------------------

    def _keep_evolution(self, state: rules.State, seat: int,
                        legal: tuple[rules.Action, ...]) -> rules.Action | None:
        """Keep the drawn card that can be played, a Permanent before a Temporary. Only its own
        cards are known to it."""
        def rank(a: rules.Action) -> tuple[int, int]:
            if not isinstance(a, rules.KeepEvolution):
                return (0, 0)
            card = rules.CARDS.get(rules.known_card(state, seat, a.slot))
            if card is None:
                return (0, 0)
            return (int(bool(card.hooks)), int(card.kind == rules.PERMANENT))
        return max(legal, key=rank)

    def _play_evolution(self, state: rules.State, seat: int,
                        legal: tuple[rules.Action, ...]) -> rules.Action | None:
        """Play a card as soon as it may be played, unless it would hurt this monster."""
        for a in legal:
            if isinstance(a, rules.PlayEvolution) and not (
                a.card == _SMASHING_PUMPKIN and state.stars[seat] >= 12
            ):
                return a
        return rules.PASS

    # --- dice -------------------------------------------------------------------------------

    def _wanted(self, state: rules.State, seat: int, face: int, count: int) -> bool:
        if face in (SMASH, ENERGY):
            return True
        if face == HEART:
            return not state.in_tokyo(seat) and state.hp[seat] < rules.max_hp(state, seat)
        # Numbers: worth keeping towards three of a kind.
        return count >= 3 or (face == THREE and count >= 2)

    def _roll(self, state: rules.State, seat: int, legal: tuple[rules.Action, ...]) -> rules.Action:
        dice = state.dice
        counts = [dice.count(f) for f in range(6)]
        unwanted = [i for i, d in enumerate(dice) if not self._wanted(state, seat, d, counts[d])]
        # A free re-roll of an unwanted 3 first. Only a card of the seat offers one.
        for a in legal if state.cards[seat] else ():
            if (
                isinstance(a, rules.UseCard)
                and _kind(state, a.card) == _BACKGROUND_DWELLER
                and a.args[0] in unwanted
            ):
                return a
        reroll = tuple(unwanted)
        if reroll and rules.Reroll(reroll) in legal:
            return rules.Reroll(reroll)
        return rules.STOP

    def _change(self, state: rules.State, legal: tuple[rules.Action, ...]) -> rules.Action | None:
        """The die change that scores most stars. It is worth it only for a new three of a kind."""
        base = number_stars(count_faces(state.dice))
        best, gain = None, 1
        for a in legal:
            if (not isinstance(a, rules.UseCard) or not a.args
                    or _kind(state, a.card) == _BACKGROUND_DWELLER):
                continue  # a change of every die at once, as Yin & Yang makes, is not weighed
            die, face = (a.args[0], 0) if len(a.args) == 1 else a.args
            dice = list(state.dice)
            if dice[die] in (SMASH, HEART, ENERGY):
                continue
            dice[die] = face
            g = number_stars(count_faces(tuple(dice))) - base
            if g > gain:
                best, gain = a, g
        return best

    # --- buying -----------------------------------------------------------------------------

    def _buy(self, state: rules.State, seat: int, legal: tuple[rules.Action, ...]) -> rules.Action:
        best: rules.Action = rules.DONE
        best_value = 0.0
        for a in legal:
            if not isinstance(a, rules.Buy):
                continue
            if rules.CARDS[a.card].self_damage >= state.hp[seat]:
                continue
            worth = card_worth(a.card)
            if worth >= rules.card_cost(state, seat, a.card) and worth > best_value:
                best, best_value = a, worth
        if best is rules.DONE:
            for a in legal:
                if isinstance(a, rules.UseCard) and not a.args and state.hp[seat] <= 4:
                    return a  # Rapid Healing when low
        return best

    def _take(self, state: rules.State, seat: int, legal: tuple[rules.Action, ...]) -> rules.Action | None:
        """Buy a card revealed by Opportunist or peeked by Made in a Lab, if it is worth its cost."""
        for a in legal:
            card = a.card if isinstance(a, rules.Buy) else None
            if isinstance(a, rules.UseCard) and a.args:
                card = state.slots.get(a.args[0], rules.HIDDEN)
            if card is not None and card != rules.HIDDEN:
                cost = rules.card_cost(state, seat, card)
                if cost <= state.energy[seat] and card_worth(card) >= cost:
                    return a
        return None

    def _mimic(self, state: rules.State, legal: tuple[rules.Action, ...]) -> rules.Action | None:
        now = rules.copied(state, _MIMIC)
        best = max(
            (a for a in legal if isinstance(a, rules.UseCard)),
            key=lambda a: card_worth(a.args[0]),
            default=None,
        )
        if best is None or (now and card_worth(best.args[0]) < card_worth(now) + 2):
            return None
        return best

    # --- reactions --------------------------------------------------------------------------

    def _hearts(self, legal: tuple[rules.Action, ...]) -> rules.Action | None:
        """Remove as many tokens as possible, the most of one kind first. Else heal."""
        tokens = [a for a in legal if isinstance(a, rules.UseCard) and len(a.args) == 1]
        return max(tokens, key=lambda a: a.args[0], default=None)

    def _react(self, state: rules.State, legal: tuple[rules.Action, ...]) -> rules.Action | None:
        frame = state.stack[-1]
        amount = frame[3]
        for a in legal:
            if isinstance(a, rules.UseCard):
                k = _kind(state, a.card)
                if k == _CAMOUFLAGE or k != _WINGS or amount >= 2:
                    return a
        return None

    def _probe(self, state: rules.State, seat: int, legal: tuple[rules.Action, ...]) -> rules.Action | None:
        """Re-roll one of the active monster's smashes when they would hit this monster."""
        active = state.active
        if state.in_tokyo(seat) == state.in_tokyo(active):
            return None
        for a in legal:
            if isinstance(a, rules.UseCard) and state.dice[a.args[0]] == SMASH:
                return a
        return None


def _is_legal(action: rules.Action, legal: tuple[rules.Action, ...]) -> bool:
    return any(a == action and type(a) is type(action) for a in legal)


def _seen_worth(state: rules.State, action: rules.Action) -> float:
    """The worth of the card a look at the deck showed, for ``UseCard(card, (slot,))``."""
    if not isinstance(action, rules.UseCard) or not action.args:
        return 0.0
    card = state.slots.get(action.args[0], 0)
    return card_worth(card) if card in rules.CARDS else 0.0


def _neutral(legal: tuple[rules.Action, ...]) -> rules.Action | None:
    for kind in (rules.Done, rules.Pass, rules.Stop, rules.Stay):
        for a in legal:
            if type(a) is kind:
                return a
    return None
