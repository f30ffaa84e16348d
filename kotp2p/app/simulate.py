"""``kotp2p simulate``: games between bots, a seeded PRNG driving every random request.

Game ``g`` of a run with seed ``S`` draws its dice and cards from ``random.Random`` seeded with
``(S, g)``. Each seat's bot is seeded with ``(S, g, seat)``. So the same command gives the same
games, the same digests and the same summary. Only the games-per-second figure differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial

from kotp2p import compiled, rules
from kotp2p.app.errors import CommandError
from kotp2p.app.localgame import check_playouts
from kotp2p.bots import BOT_KINDS, make_bot

MAX_JOBS = 64
"""The most processes ``--jobs`` may ask for."""


@dataclass
class GameRecord:
    """What one finished game tells the summary."""

    seats: tuple[str, ...]
    winners: tuple[int, ...]
    by_points: bool
    turns: int
    random_events: int
    applies: int
    digest: bytes
    purchases: list[tuple[int, int]] = field(default_factory=list)  # seat and card id
    damage: int = 0  # health lost by every monster
    yields: int = 0  # times a monster yielded Tokyo
    steals: list[tuple[int, int]] = field(default_factory=list)  # thief and costume
    monsters: tuple[str, ...] = ()
    evolutions: list[tuple[int, int]] = field(default_factory=list)  # seat and Evolution played
    costume_holders: dict[int, set[int]] = field(default_factory=dict)  # costume -> seats
    broken: list[str] = field(default_factory=list)  # invariants broken, with ``check``


def _seed(*parts: int) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "big")


def play_game(
    bot_kinds: Sequence[str], seed: int, game: int, max_applies: int = 100_000, *,
    halloween: bool = False, power_up: bool = False, check: bool = False,
    playouts: int | None = None,
) -> GameRecord:
    """Play one game between bots of ``bot_kinds``, one per seat; return its record.

    ``halloween`` plays with the Halloween expansion. ``power_up`` plays with Power Up!, the
    monsters drawn among all of them for each game. ``check`` tests every state's invariants
    and records what broke.

    :raises RuntimeError: if the game does not end within ``max_applies`` inputs.
    """
    n = len(bot_kinds)
    monsters = rules.MONSTERS[:n]
    if power_up:  # its own generator, so a base game's dice stay those of its seed
        monsters = tuple(random.Random(_seed(seed, game, -1)).sample(rules.MONSTERS, n))
    options = rules.Options(halloween=halloween, power_up=power_up)
    state = rules.new_game(rules.Setup(monsters=monsters, options=options))
    evolutions: list[tuple[int, int]] = []
    steals: list[tuple[int, int]] = []
    holders: dict[int, set[int]] = {}
    broken: list[str] = []
    rng = random.Random(_seed(seed, game))
    bots = [make_bot(kind, _seed(seed, game, seat), playouts)
            for seat, kind in enumerate(bot_kinds)]
    purchases: list[tuple[int, int]] = []
    damage = yields = 0
    by_points = False
    applies = 0
    apply = rules.apply
    events: list[rules.Event] = []
    while not state.over:
        pending = state.pending
        if isinstance(pending, rules.RandomRequest):
            action: rules.Action = rules.RandomResult(tuple(rng.randrange(b) for b in pending.bounds))
        else:
            assert isinstance(pending, rules.Decision)
            action = bots[pending.seat].choose(state)
        state = apply(state, action, events=events)
        if check:
            broken += [f"game {game}, input {applies}: {b}" for b in rules.broken_invariants(state)]
        for e in events:  # the statistics read what happened, never diffs of states
            if type(e) is rules.CardBought:  # from the market, a monster, the deck
                purchases.append((e.seat, e.card))
                if rules.CARDS[e.card].kind == rules.COSTUME:
                    holders.setdefault(e.card, set()).add(e.seat)
            elif type(e) is rules.CostumeKept:
                holders.setdefault(e.card, set()).add(e.seat)
            elif type(e) is rules.CostumeTaken:
                steals.append((e.seat, e.card))
                holders.setdefault(e.card, set()).add(e.seat)
            elif type(e) is rules.Damaged:
                damage += e.amount
            elif type(e) is rules.YieldedTokyo:
                yields += 1
            elif type(e) is rules.EvolutionPlayed:
                evolutions.append((e.seat, e.card))
            elif type(e) is rules.GameOver:
                by_points = e.by_stars
        events.clear()
        applies += 1
        if applies > max_applies:
            raise RuntimeError(f"game {game} did not end within {max_applies} inputs")
    return GameRecord(
        seats=tuple(bot_kinds),
        winners=state.winners,
        by_points=by_points,
        turns=state.turn,
        random_events=state.k,
        applies=applies,
        digest=state.digest(),
        purchases=purchases,
        damage=damage,
        yields=yields,
        steals=steals,
        costume_holders=holders,
        broken=broken,
        monsters=monsters,
        evolutions=evolutions,
    )


@dataclass
class Summary:
    """Statistics over many games."""

    games: int
    players: int
    seed: int
    bots: tuple[str, ...]
    seat_wins: list[float]
    bot_wins: dict[str, float]
    bot_seats: dict[str, int]
    wins_by_points: int
    wins_by_elimination: int
    no_winner: int
    mean_turns: float
    mean_random_events: float
    mean_applies: float
    mean_damage: float
    mean_yields: float
    seconds: float
    digest: str
    card_bought: dict[int, int]
    card_buyer_wins: dict[int, float]
    halloween: bool = False
    steals: dict[int, int] = field(default_factory=dict)
    costume_held: dict[int, int] = field(default_factory=dict)
    costume_holder_wins: dict[int, float] = field(default_factory=dict)
    power_up: bool = False
    evolution_played: dict[int, int] = field(default_factory=dict)
    evolution_player_wins: dict[int, float] = field(default_factory=dict)
    monster_games: dict[str, int] = field(default_factory=dict)
    monster_wins: dict[str, float] = field(default_factory=dict)
    checked: bool = False
    states_checked: int = 0
    broken: list[str] = field(default_factory=list)

    def intervals(self) -> dict[str, tuple[float, float]]:
        """The 95% interval of the win rate of each bot level that plays one seat in every
        game, as a tournament of one bot against others does (Wilson's score interval)."""
        out = {}
        for k, n in sorted(self.bot_seats.items()):
            if n == self.games and n:
                out[k] = wilson(self.bot_wins[k] / n, n)
        return out

    def to_json(self) -> dict[str, object]:
        """The summary as plain JSON values."""
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "bots": list(self.bots),
            "win_rate_by_seat": [w / self.games for w in self.seat_wins],
            "win_rate_by_bot": {
                k: self.bot_wins[k] / self.bot_seats[k] for k in sorted(self.bot_seats)
            },
            "win_rate_95_interval": {k: list(v) for k, v in self.intervals().items()},
            "wins_by_points": self.wins_by_points,
            "wins_by_elimination": self.wins_by_elimination,
            "no_winner": self.no_winner,
            "mean_turns": self.mean_turns,
            "mean_random_events": self.mean_random_events,
            "mean_inputs": self.mean_applies,
            "mean_damage": self.mean_damage,
            "mean_yields": self.mean_yields,
            "games_per_second": self.games / self.seconds if self.seconds else None,
            "digest": self.digest,
            "cards": {
                card_label(c): {
                    "bought": self.card_bought[c],
                    "buyer_win_rate": self.card_buyer_wins[c] / self.card_bought[c],
                }
                for c in sorted(self.card_bought)
            },
            **({"costumes": {
                card_label(c): {
                    "held_by": self.costume_held[c],
                    "holder_win_rate": self.costume_holder_wins[c] / self.costume_held[c],
                    "stolen": self.steals.get(c, 0),
                }
                for c in sorted(self.costume_held)
            }} if self.halloween else {}),
            **({"evolutions": {
                card_label(c): {
                    "played": self.evolution_played[c],
                    "player_win_rate": self.evolution_player_wins[c] / self.evolution_played[c],
                }
                for c in sorted(self.evolution_played)
            }, "monsters": {
                m: {"games": self.monster_games[m],
                    "win_rate": self.monster_wins[m] / self.monster_games[m]}
                for m in sorted(self.monster_games)
            }} if self.power_up else {}),
            **({"invariants": {"states": self.states_checked, "broken": self.broken[:20],
                               "broken_count": len(self.broken)}} if self.checked else {}),
        }


def simulate(
    games: int,
    players: int,
    seed: int,
    bots: Sequence[str],
    progress: Callable[[int], None] | None = None,
    *,
    halloween: bool = False,
    power_up: bool = False,
    check: bool = False,
    playouts: int | None = None,
    jobs: int = 1,
) -> Summary:
    """Play ``games`` games of ``players`` seats, bots cycled over the seats.

    ``halloween`` plays with the Halloween expansion, ``power_up`` with Power Up!; ``check``
    tests every state's invariants.

    :raises ValueError: for an unknown bot kind or a player count outside 2..6.
    """
    if not 2 <= players <= 6:
        raise ValueError(f"expected 2 to 6 players, found {players}")
    for b in bots:
        if b not in BOT_KINDS:
            raise ValueError(f"expected bot kinds among {', '.join(BOT_KINDS)}, found {b!r}")
    kinds = tuple(bots[i % len(bots)] for i in range(players))
    seat_wins = [0.0] * players
    bot_wins: dict[str, float] = dict.fromkeys(kinds, 0.0)
    bot_seats: dict[str, int] = dict.fromkeys(kinds, 0)
    by_points = by_elim = none = 0
    turns = events = applies = damage = yields = 0
    card_bought: dict[int, int] = {}
    card_wins: dict[int, float] = {}
    steals: dict[int, int] = {}
    held: dict[int, int] = {}
    held_wins: dict[int, float] = {}
    broken: list[str] = []
    played: dict[int, int] = {}
    played_wins: dict[int, float] = {}
    monster_games: dict[str, int] = {}
    monster_wins: dict[str, float] = {}
    h = hashlib.sha256()
    start, children_start = time.process_time(), _children_cpu()
    play = partial(play_game, kinds, seed, halloween=halloween, power_up=power_up, check=check,
                   playouts=playouts)
    for g, rec in enumerate(_records(play, games, jobs)):
        h.update(rec.digest)
        share = 1.0 / len(rec.winners) if rec.winners else 0.0
        for seat in range(players):
            bot_seats[kinds[seat]] += 1
        for w in rec.winners:
            seat_wins[w] += share
            bot_wins[kinds[w]] += share
        if not rec.winners:
            none += 1
        elif rec.by_points:
            by_points += 1
        else:
            by_elim += 1
        turns += rec.turns
        events += rec.random_events
        applies += rec.applies
        damage += rec.damage
        yields += rec.yields
        for seat, card in rec.purchases:
            card_bought[card] = card_bought.get(card, 0) + 1
            card_wins[card] = card_wins.get(card, 0.0) + (share if seat in rec.winners else 0.0)
        for _, card in rec.steals:
            steals[card] = steals.get(card, 0) + 1
        for card, seats in rec.costume_holders.items():
            held[card] = held.get(card, 0) + len(seats)
            held_wins[card] = held_wins.get(card, 0.0) + share * len(seats & set(rec.winners))
        for seat, card in rec.evolutions:
            played[card] = played.get(card, 0) + 1
            played_wins[card] = played_wins.get(card, 0.0) + (share if seat in rec.winners else 0.0)
        if power_up:
            for seat, monster in enumerate(rec.monsters):
                monster_games[monster] = monster_games.get(monster, 0) + 1
                won = share if seat in rec.winners else 0.0
                monster_wins[monster] = monster_wins.get(monster, 0.0) + won
        broken += rec.broken
        if progress is not None:
            progress(g + 1)
    seconds = time.process_time() - start + _children_cpu() - children_start
    return Summary(
        games=games,
        players=players,
        seed=seed,
        bots=kinds,
        seat_wins=seat_wins,
        bot_wins=bot_wins,
        bot_seats=bot_seats,
        wins_by_points=by_points,
        wins_by_elimination=by_elim,
        no_winner=none,
        mean_turns=turns / games if games else 0.0,
        mean_random_events=events / games if games else 0.0,
        mean_applies=applies / games if games else 0.0,
        mean_damage=damage / games if games else 0.0,
        mean_yields=yields / games if games else 0.0,
        seconds=seconds,
        digest=h.hexdigest()[:16],
        card_bought=card_bought,
        card_buyer_wins=card_wins,
        halloween=halloween,
        steals=steals,
        costume_held=held,
        costume_holder_wins=held_wins,
        power_up=power_up,
        evolution_played=played,
        evolution_player_wins=played_wins,
        monster_games=monster_games,
        monster_wins=monster_wins,
        checked=check,
        states_checked=applies if check else 0,
        broken=broken,
    )


def _records(play: Callable[[int], GameRecord], games: int, jobs: int
             ) -> Iterator[GameRecord]:
    """The record of each game in order, played by ``jobs`` processes."""
    if jobs <= 1 or games < 2:
        yield from map(play, range(games))
        return
    # Each process loads the engine this one runs, before it imports the rules.
    build = compiled.installed()
    start = (compiled.install, (build,)) if build is not None else (None, ())
    with multiprocessing.get_context("spawn").Pool(min(jobs, games), *start) as pool:
        yield from pool.imap(play, range(games))
        pool.close()
        pool.join()  # so that the CPU time of the processes counts


def _children_cpu() -> float:
    """The CPU time of the child processes that ended and were waited for."""
    t = os.times()
    return t.children_user + t.children_system


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a rate ``p`` seen in ``n`` independent trials."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def card_label(card: int) -> str:
    """A card's printed name, with "(2)" for the second copy of a name, such as Extra Head."""
    name = rules.CARDS[card].name
    first = min(c for c in rules.CARDS if rules.CARDS[c].name == name)
    return name if card == first else f"{name} (2)"


def format_summary(s: Summary) -> str:
    """The summary as a few lines of plain text."""
    lines = [
        f"{s.games} games, {s.players} players, seed {s.seed}, bots {','.join(s.bots)}",
        "win rate by seat: "
        + "  ".join(f"{i}:{w / s.games:.1%}" for i, w in enumerate(s.seat_wins)) if s.games else "",
        "win rate by bot:  "
        + "  ".join(f"{k}:{s.bot_wins[k] / s.bot_seats[k]:.1%}" for k in sorted(s.bot_seats)),
        *(f"  {k} in one seat of each game: {s.bot_wins[k] / s.games:.1%}, 95% interval "
          f"{low:.1%} to {high:.1%}" for k, (low, high) in s.intervals().items()
          if len(s.bot_seats) > 1),
        f"wins by points {s.wins_by_points}, by elimination {s.wins_by_elimination}, "
        f"no winner {s.no_winner}",
        f"mean turns {s.mean_turns:.1f}, mean random events {s.mean_random_events:.1f}, "
        f"mean inputs {s.mean_applies:.1f}",
        f"mean health lost per game {s.mean_damage:.1f}, mean yields of Tokyo {s.mean_yields:.1f}",
        f"{s.games / s.seconds:.0f} games/s (CPU)" if s.seconds else "games/s: n/a",
        f"digest of all final states: {s.digest}",
    ]
    if s.halloween:
        lines.append(f"Halloween: {sum(s.steals.values())} costumes stolen in {s.games} games")
        lines.append("costumes (monsters that held each, their win rate, times stolen):")
        for c in sorted(s.costume_held, key=lambda c: (-s.costume_held[c], c)):
            rate = s.costume_holder_wins[c] / s.costume_held[c]
            lines.append(f"  {card_label(c):<32} {s.costume_held[c]:>6}  {rate:6.1%}  "
                         f"{s.steals.get(c, 0):>5}")
    if s.power_up:
        lines.append(f"Power Up!: {sum(s.evolution_played.values())} Evolutions played in "
                     f"{s.games} games")
        lines.append("monsters (games, win rate):")
        for m in sorted(s.monster_games, key=lambda m: (-s.monster_wins[m] / s.monster_games[m], m)):
            rate = s.monster_wins[m] / s.monster_games[m]
            lines.append(f"  {m:<32} {s.monster_games[m]:>6}  {rate:6.1%}")
        lines.append("Evolutions played (times, player win rate):")
        for c in sorted(s.evolution_played, key=lambda c: (-s.evolution_played[c], c)):
            rate = s.evolution_player_wins[c] / s.evolution_played[c]
            lines.append(f"  {card_label(c):<32} {s.evolution_played[c]:>6}  {rate:6.1%}")
    if s.checked:
        lines.append(f"invariants: {s.states_checked} states checked, {len(s.broken)} broken")
        lines += [f"  {b}" for b in s.broken[:20]]
    if s.card_bought:
        lines.append("cards bought (times, buyer win rate):")
        ranked = sorted(s.card_bought, key=lambda c: (-s.card_bought[c], c))
        for c in ranked:
            name = card_label(c)
            rate = s.card_buyer_wins[c] / s.card_bought[c]
            lines.append(f"  {name:<32} {s.card_bought[c]:>6}  {rate:6.1%}")
    return "\n".join(lines)


class _ProgressBar:
    def __init__(self, total: int) -> None:
        self.total = total
        self.shown = -1

    def __call__(self, done: int) -> None:
        width = 30
        filled = done * width // self.total
        pct = done * 100 // self.total
        if pct != self.shown:
            self.shown = pct
            bar = "#" * filled + "-" * (width - filled)
            sys.stderr.write(f"\r[{bar}] {done}/{self.total} games")
            if done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def run_simulate_command(args: argparse.Namespace) -> int:
    """The ``simulate`` subcommand."""
    if args.games < 1:
        raise CommandError(f"expected --games of at least 1, found {args.games}")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise CommandError(f"expected --jobs from 1 to {MAX_JOBS}, found {args.jobs}")
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    if not bots:
        raise CommandError("expected at least one bot kind in --bots")
    show = not args.no_progress and args.games >= 50 and sys.stderr.isatty()
    try:
        summary = simulate(
            args.games, args.players, args.seed, bots, _ProgressBar(args.games) if show else None,
            halloween=args.halloween, power_up=args.power_up, check=args.check,
            playouts=check_playouts(args.playouts), jobs=args.jobs,
        )
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    engine = compiled.in_use()
    if args.json:
        print(json.dumps({"engine": engine, **summary.to_json()}, indent=2))
    else:
        print(f"engine: {engine}")
        print(format_summary(summary))
    return 1 if summary.broken else 0
