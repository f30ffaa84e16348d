"""A hint for the player: what the hard bot would do in the player's place, and why.

At a roll it names the dice it would keep and the chances it counts on: for the face it keeps
most of, how likely one, two or three more of it are after the roll. Where the bot plays games
on to choose, as whether to leave Tokyo or, in a duel, what to buy, it names the action and how
often it won after it, and after the next best. Elsewhere it names the action. It reads only
the player's own view, as the bot would.
"""

from __future__ import annotations

from kotp2p import rules
from kotp2p.bots.dice import chances
from kotp2p.bots.hard import HardBot
from kotp2p.bots.playouts import Judged

_FACE_WORDS = rules.SYMBOLS.faces


def hint(state: rules.State, seat: int) -> str:
    """One line: what the hard bot would do at ``seat``'s pending decision, or why it cannot
    tell."""
    d = state.pending
    if not isinstance(d, rules.Decision) or d.seat != seat:
        return "no decision of yours is pending"
    bot = HardBot(0)
    judged = bot.search(state)
    if judged:
        return _searched(state, judged)
    plan = bot.dice_plan(state, seat, rules.legal_actions(state)) if d.kind == "roll" else None
    if plan is None:
        return f"the hard bot would choose: {rules.describe_action(state, bot.choose(state))}"
    keep, worth, stop = plan
    if keep is None:
        return "the hard bot would stop: no re-roll is worth more to it than these dice"
    rolled = len(state.dice) - sum(keep)
    kept = " ".join(_FACE_WORDS[f] for f in range(6) for _ in range(keep[f])) or "nothing"
    words = f"the hard bot would keep {kept} and re-roll {rolled}"
    face = max(range(6), key=lambda f: keep[f])
    if keep[face]:
        odds = []
        for more in range(1, min(rolled, 3) + 1):
            p = sum(pr for o, pr in chances(rolled) if o[face] >= more)
            odds.append(f"{keep[face] + more}+: {_percent(p)}")
        words += f" (chance of dice showing {_FACE_WORDS[face]}, " + ", ".join(odds) + ")"
    return f"{words}; on average {worth - stop:.1f}★ better than stopping"


def _searched(state: rules.State, judged: list[Judged]) -> str:
    best, *others = judged
    words = (f"the hard bot would choose: {rules.describe_action(state, best.action)}; it won "
             f"{best.wins:.3g} of {best.games} games played on from there")
    if others:
        runner_up = others[0]
        words += (f", against {runner_up.wins:.3g} after "
                  f"{rules.describe_action(state, runner_up.action)}")
    return words


def _percent(p: float) -> str:
    return f"{100 * p:.0f}%" if p >= 0.01 else "under 1%"
