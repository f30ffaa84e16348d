"""The hard bot: exact dice decisions, games played out for the big choices, the greedy bot's
rules of thumb for the rest.

Theory of operation
-------------------
At a roll decision the bot knows the value of every final roll: for each multiset of faces it
has the engine play "roll all dice again, they show these faces, stop" on a copy of its view,
answers no to the card questions before the dice resolve, and weighs the state that follows
(:func:`judge`). So every card in play counts as the rules make it count. :mod:`kotp2p.bots.dice`
then finds the keep with the best expected value over the rolls left. The bot sees only its
seat's view, as every bot does, and the engine runs on that view: a hidden card stays hidden.

:func:`judge` puts a state in stars: its own stars, energy and health, Tokyo, and the stars and
health of the others. A monster out of the game, and a game over, are worth a fixed amount.

Whether to leave Tokyo, and what to buy when two monsters are left, are judged by the games
that follow (:mod:`kotp2p.bots.playouts`): ``playouts`` games for each choice, played by greedy
bots from the seat's own view. More games judge more surely and take longer; with none, the
greedy bot's rules decide.
"""

from __future__ import annotations

from kotp2p import rules
from kotp2p.bots.dice import Counts, best_keep, counts_of, reroll_indices, rolls_of
from kotp2p.bots.greedy import GreedyBot
from kotp2p.bots.playouts import Judged, judge_actions

ENERGY_WORTH = 0.6
"""One energy, in stars."""
OTHER_HEARTS = 0.9
"""One heart the other monsters lose, in stars, shared among them: against one monster it is
worth most, since a knock-out wins."""
OTHER_STARS = 0.5
"""One star of another monster, in stars."""
KNOCK_OUT = 6.0
"""Another monster out of the game, in stars."""
TOKYO = 1.5
"""Being in Tokyo with health to hold it, in stars: the next turn starts there."""
TOKYO_OF_TWO = ENERGY_WORTH
"""The same with two players, where the next turn in Tokyo pays one energy instead."""
END = 1000.0
"""A game won, or lost, in stars."""
PLAYOUTS = 64
"""Games played out for each choice of a searched decision, by default. Against three greedy
bots, 64 won 46.0% and 48.3% of 1,000 games where 32 won 45.2% and 45.3% (seeds 0 and 102)."""
SEARCHED = frozenset({"yield"})
"""The decisions judged by games played out."""
SEARCHED_IN_DUEL = frozenset({"yield", "buy"})
"""The decisions judged by games played out when two monsters are left. A duel's games are
short, so there is time to judge each card for sale; against one greedy bot that raised the
share of games won from 63% to 71%. With more monsters, judging purchases gained nothing
measurable for twice the time."""
_QUIET = frozenset({"change", "probe", "witch", "cheer", "evolution", "rabbit"})
"""The questions between a final roll and its resolution: the judging answers them with no."""


def own_hearts(hp: int) -> float:
    """The worth of ``hp`` hearts, in stars: the first ones weigh most."""
    return sum(1.0 if i <= 3 else 0.6 if i <= 6 else 0.3 for i in range(1, hp + 1))


def heart_worth(state: rules.State, seat: int) -> float:
    """What one heart another monster loses is worth to ``seat`` now, in stars."""
    return OTHER_HEARTS / max(1, sum(1 for t in range(state.n) if t != seat and state.alive[t]))


def judge(state: rules.State, seat: int, heart: float) -> float:
    """How good ``state`` is for ``seat``, in stars, with ``heart`` the worth of a heart another
    monster loses (:func:`heart_worth` of the state before)."""
    if state.over:
        return END if seat in state.winners else -END
    if not state.alive[seat]:
        return -END
    worth = (state.stars[seat] + ENERGY_WORTH * state.energy[seat] + own_hearts(state.hp[seat]))
    if state.in_tokyo(seat):  # with two players, Tokyo pays in energy, not stars
        hold = TOKYO_OF_TWO if state.two_player else TOKYO
        worth += hold if state.hp[seat] > 4 else -TOKYO
    for t in range(state.n):
        if t == seat:
            continue
        if state.alive[t]:
            worth -= heart * state.hp[t] + OTHER_STARS * state.stars[t]
        else:
            worth += KNOCK_OUT
    return worth


def _settle(state: rules.State, seat: int) -> rules.State:
    """``state`` once the dice resolved: the questions before are answered with no, and a
    monster smashed in Tokyo yields as the greedy bot would, with 5♥ or less. It stops at the
    player's own buy, or at anything else a guess would decide."""
    for _ in range(6 * state.n):
        d = state.pending
        if not isinstance(d, rules.Decision):
            break
        legal = rules.legal_actions(state)
        if d.kind == "yield" and d.seat != seat:
            answer: rules.Action | None = rules.YIELD if state.hp[d.seat] <= 5 else rules.STAY
        elif d.kind in _QUIET:
            answer = next((a for a in (rules.PASS, rules.DONE) if a in legal), None)
        else:
            break
        if answer is None or answer not in legal:
            break
        state = rules.apply(state, answer)
    return state


def searched(state: rules.State) -> frozenset[str]:
    """The kinds of decision the hard bot judges by games played out, in ``state``."""
    return SEARCHED_IN_DUEL if state.alive_count() <= 2 else SEARCHED


class HardBot(GreedyBot):
    """The greedy bot, with dice kept by expectimax over the engine's own resolution and
    Tokyo left or held by the games played on after each choice."""

    name = "hard"

    def __init__(self, seed: int = 0, playouts: int = PLAYOUTS) -> None:
        super().__init__(seed)
        self.seed = seed
        self.playouts = playouts
        """Games played out for each choice of a searched decision; 0 leaves them to rules of
        thumb."""

    def choose(self, state: rules.State) -> rules.Action:
        """A legal action for the pending decision: searched, or the greedy bot's."""
        judged = self.search(state)
        return judged[0].action if judged else super().choose(state)

    def search(self, state: rules.State) -> list[Judged]:
        """Each legal action of the pending decision with the share of games won after it, the
        best first; empty when the decision is not one the bot searches (:func:`searched`), no
        games are to be played out, or there is nothing to choose. A tie goes to the greedy
        bot's choice, then to the order of the legal actions."""
        d = state.pending
        if not isinstance(d, rules.Decision) or self.playouts <= 0 or d.kind not in searched(state):
            return []
        legal = rules.legal_actions(state)
        if len(legal) < 2:
            return []
        # The random numbers depend on the seed and on what every seat sees of the state.
        seed = (self.seed * 1_000_003 + state.k * 4099 + state.turn * 31 + d.seat) % 2**32
        judged = judge_actions(state, d.seat, legal, self.playouts, seed)
        usual = super().choose(state)
        return sorted(judged, key=lambda j: (-j.wins, j.action != usual))

    def _roll(self, state: rules.State, seat: int, legal: tuple[rules.Action, ...]) -> rules.Action:
        plan = self.dice_plan(state, seat, legal)
        if plan is None:
            return super()._roll(state, seat, legal)
        keep = plan[0]
        return rules.STOP if keep is None else rules.Reroll(reroll_indices(state.dice, keep))

    def dice_plan(self, state: rules.State, seat: int, legal: tuple[rules.Action, ...]
                  ) -> tuple[Counts | None, float, float] | None:
        """At ``seat``'s roll: the dice to keep (None to stop), the expected worth of that, and
        the worth of stopping now. None when the search cannot run: no roll left, or a die the
        rules hold, so that not every die can be rolled."""
        dice, rolls = state.dice, state.rolls_left
        everything = rules.Reroll(tuple(range(len(dice))))
        if rolls <= 0 or everything not in legal:
            return None
        values = self.values(state, seat, everything)
        choices = {a for a in legal if isinstance(a, rules.Reroll)}
        keep, worth = best_keep(values, dice, rolls,
                                lambda k: rules.Reroll(reroll_indices(dice, k)) in choices)
        return keep, worth, values[counts_of(dice)]

    def values(self, state: rules.State, seat: int, everything: rules.Reroll
               ) -> dict[Counts, float]:
        """The worth of every final roll of the dice now rolled, from ``seat``'s view."""
        rolled = rules.apply(state, everything)
        heart = heart_worth(state, seat)
        out: dict[Counts, float] = {}
        for roll in rolls_of(len(state.dice)):
            faces = tuple(f for f in range(6) for _ in range(roll[f]))
            try:
                after = rules.apply(rolled, rules.RandomResult(faces))
                if isinstance(after.pending, rules.Decision) and after.pending.kind == "roll":
                    after = rules.apply(after, rules.STOP)
                out[roll] = judge(_settle(after, seat), seat, heart)
            except (rules.IllegalAction, ValueError):
                out[roll] = judge(state, seat, heart)
        return out
