"""A tiny dice game behind the ``GameEngine`` interface, so the trust core is tested without the
full rules: a roll-off, turns of up to three rolls of four dice with keep-sets, a chained bonus
draw (two random events with no decision between them), and a non-active seat's decision.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from kotp2p.net.trust import Chance, Pending, Turn
from kotp2p.net.wire import Value, codec

DICE = 4
START_HP = 5
TARGET = 15
MAX_TURNS = 40


@dataclass(frozen=True)
class ToyState:
    n: int
    hp: tuple[int, ...]
    score: tuple[int, ...]
    active: int
    phase: str  # rolloff, roll, keep, bonus, flee, over
    dice: tuple[int, ...]
    rolls_left: int
    reroll: tuple[int, ...]  # indices of the dice being rolled
    k: int  # random events so far
    turn: int
    hit: tuple[int, ...]  # seats still to be asked whether they flee

    @property
    def alive(self) -> tuple[bool, ...]:
        return tuple(h > 0 for h in self.hp)


class ToyEngine:
    engine_id = "toy-1"

    def engine_id_for(self, options: Value) -> str:
        return self.engine_id

    def default_options(self, seats: int) -> Value:
        return [seats]

    def start(self, monsters: Sequence[str], options: Value) -> ToyState:
        n = len(monsters)
        if options != [n]:
            raise ValueError(f"options {options!r}, [{n}] expected")
        return ToyState(n, (START_HP,) * n, (0,) * n, 0, "rolloff", (), 3, (), 0, 1, ())

    def pending(self, s: ToyState) -> Pending:
        if s.phase == "over":
            return None
        if s.phase in ("rolloff", "roll", "bonus"):
            bounds = {"rolloff": (6,) * s.n, "roll": (6,) * len(s.reroll), "bonus": (5,)}
            return Chance(bounds[s.phase], s.k + 1)
        if s.phase == "keep":
            return Turn(s.active)
        return Turn(s.hit[0])

    def legal(self, s: ToyState) -> list[Value]:
        if s.phase == "keep":
            out: list[Value] = [["stop"]]
            if s.rolls_left:
                out += [["reroll", m] for m in range(1, 1 << DICE)]
            return out
        if s.phase == "flee":
            return [["brace"], ["flee"]]
        return []

    def apply_move(self, s: ToyState, action: Value) -> ToyState:
        if action not in self.legal(s):
            raise ValueError(f"illegal action {action!r} for {s.phase}")
        if s.phase == "keep":
            if action == ["stop"]:
                return self._resolve(s)
            mask = action[1]
            idx = tuple(i for i in range(DICE) if mask >> i & 1)
            return replace(s, phase="roll", reroll=idx, rolls_left=s.rolls_left - 1)
        seat = s.hit[0]
        if action == ["flee"]:
            score = list(s.score)
            score[seat] = max(0, score[seat] - 1)
            s = replace(s, score=tuple(score))
        return self._next_hit(replace(s, hit=s.hit[1:]))

    def apply_random(self, s: ToyState, values: tuple[int, ...]) -> ToyState:
        p = self.pending(s)
        assert isinstance(p, Chance) and len(values) == len(p.bounds)
        s = replace(s, k=s.k + 1)
        if s.phase == "rolloff":
            alive = s.alive
            best = max(v for v, a in zip(values, alive, strict=True) if a)
            first = next(i for i, v in enumerate(values) if v == best and alive[i])
            return self._start_turn(replace(s, active=first, turn=0))
        if s.phase == "bonus":
            score = list(s.score)
            score[s.active] += values[0]
            return self._after_bonus(replace(s, score=tuple(score)))
        dice = list(s.dice) if s.dice else [0] * DICE
        for i, v in zip(s.reroll, values, strict=True):
            dice[i] = v
        s = replace(s, dice=tuple(dice), phase="keep", reroll=())
        return self._resolve(s) if s.rolls_left == 0 else s

    def _start_turn(self, s: ToyState) -> ToyState:
        return replace(s, phase="roll", dice=(), rolls_left=2, reroll=tuple(range(DICE)),
                       turn=s.turn + 1, hit=())

    def _resolve(self, s: ToyState) -> ToyState:
        a = s.active
        score, hp = list(s.score), list(s.hp)
        score[a] += sum(d + 1 for d in s.dice if d < 3)
        hearts = s.dice.count(4)
        hp[a] = min(START_HP, hp[a] + hearts)
        smash = s.dice.count(5)
        hit = []
        if smash:
            for j in range(1, s.n):
                t = (a + j) % s.n
                if hp[t] > 0:
                    hp[t] = max(0, hp[t] - smash)
                    if hp[t] > 0:
                        hit.append(t)
        s = replace(s, score=tuple(score), hp=tuple(hp), hit=tuple(hit))
        if hearts >= 2:
            return replace(s, phase="bonus")
        return self._after_bonus(s)

    def _after_bonus(self, s: ToyState) -> ToyState:
        return self._next_hit(replace(s, phase="flee"))

    def _next_hit(self, s: ToyState) -> ToyState:
        alive = s.alive
        s = replace(s, hit=tuple(h for h in s.hit if alive[h]))
        if s.hit:
            return replace(s, phase="flee")
        return self._end_turn(s)

    def _end_turn(self, s: ToyState) -> ToyState:
        alive = s.alive
        if sum(alive) <= 1 or max(s.score) >= TARGET or s.turn >= MAX_TURNS:
            return replace(s, phase="over", hit=())
        nxt = s.active
        for j in range(1, s.n + 1):
            nxt = (s.active + j) % s.n
            if alive[nxt]:
                break
        return self._start_turn(replace(s, active=nxt))

    def apply_hidden(self, s: ToyState) -> ToyState:
        raise ValueError("the toy game has no private events")

    def slot_content(self, s: ToyState, values: tuple[int, ...]) -> int:
        raise ValueError("the toy game has no private events")

    def open_slot(self, s: ToyState, slot: int, content: int) -> ToyState:
        raise ValueError("the toy game has no hidden slots")

    def poll_view(self, s: ToyState, seat: int) -> ToyState:
        raise ValueError("the toy game has no polls")

    def apply_poll(self, s: ToyState, answers: Sequence[Value]) -> ToyState:
        raise ValueError("the toy game has no polls")

    def fill_deck(self, s: ToyState, seat: int, slot: int, card: int) -> ToyState:
        return s

    def played_slots(self, s: ToyState, action: Value) -> tuple[int, ...]:
        return ()

    def public_view(self, s: ToyState) -> ToyState:
        return s

    def eject(self, s: ToyState, seat: int) -> ToyState:
        hp = list(s.hp)
        hp[seat] = 0
        s = replace(s, hp=tuple(hp), hit=tuple(h for h in s.hit if h != seat))
        if s.phase == "rolloff" and sum(s.alive) <= 1:
            return replace(s, phase="over")
        if s.phase in ("rolloff", "over"):
            return s
        if s.active == seat:
            return self._end_turn(s)
        if s.phase == "flee":
            return self._next_hit(s)
        return s

    def alive(self, s: ToyState) -> tuple[bool, ...]:
        return s.alive

    def digest(self, s: ToyState) -> bytes:
        wire = [s.n, list(s.hp), list(s.score), s.active, s.phase, list(s.dice), s.rolls_left,
                list(s.reroll), s.k, s.turn, list(s.hit)]
        return hashlib.sha256(codec.pack(wire)).digest()

    def winners(self, s: ToyState) -> tuple[int, ...]:
        alive = s.alive
        if sum(alive) == 1:
            return (alive.index(True),)
        best = max((sc for sc, a in zip(s.score, alive, strict=True) if a), default=0)
        return tuple(i for i in range(s.n) if alive[i] and s.score[i] == best)

    def turn(self, s: ToyState) -> int:
        return s.turn

    def describe_move(self, s: ToyState, action: Value) -> str:
        return f"seat {self.pending(s)} plays {action!r}"

    def describe_random(self, s: ToyState, values: tuple[int, ...]) -> str:
        return f"{s.phase} {list(values)}"

    def narrate_move(self, s: ToyState, action: Value, verbose: bool = False) -> list[str]:
        after = self.apply_move(s, action)
        return [] if s.hp == after.hp else [f"hp {s.hp} -> {after.hp}"]

    def narrate_random(
        self, s: ToyState, values: tuple[int, ...], verbose: bool = False
    ) -> list[str]:
        after = self.apply_random(s, values)
        return [] if s.hp == after.hp else [f"hp {s.hp} -> {after.hp}"]

    def narrate_eject(self, s: ToyState, seat: int, verbose: bool = False) -> list[str]:
        return [f"seat {seat} is out"]

    def describe_state(self, s: ToyState) -> str:
        return f"turn {s.turn}: hp {s.hp} score {s.score} dice {s.dice}"


def toy_choose(engine: ToyEngine, state: ToyState, seed: int) -> Value:
    """A deterministic, seed-dependent choice among the legal actions."""
    legal = engine.legal(state)
    h = hashlib.sha256(f"{seed}:{engine.digest(state).hex()}".encode()).digest()
    return legal[int.from_bytes(h[:4], "big") % len(legal)]
