"""The maverick harness: seeded in-memory games of 2-6 seats, one rogue seat each, random
delivery order and dropped frames, and the properties every game must keep.

:func:`play` runs one game and returns a :class:`Report`; :func:`problems` lists what broke.
``python -m tests.net.maverick_runs`` (``scripts/mavericks``) runs many games per behaviour and
prints the table: games, stalls, divergences, wrong blames, non-identical logs, peak bytes held
by one peer.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from dataclasses import dataclass, field

from kotp2p.net.files import parse_log
from kotp2p.net.peer import PeerProtocol
from kotp2p.net.verify import verify_logs
from tests.net import rogues
from tests.net.harness import Mesh, build_mesh
from tests.net.toy import ToyEngine, toy_choose

TOY = ToyEngine()


@dataclass
class Report:
    """What one game showed."""

    behaviour: str
    seats: int
    seed: int
    rogue: int
    crash: str = ""
    stalled: bool = False
    diverged: bool = False
    wrong_blame: list[str] = field(default_factory=list)
    honest_ejected: list[int] = field(default_factory=list)
    logs_differ: bool = False
    bad_verdict: str = ""
    peak_bytes: int = 0
    """Most bytes of envelopes one honest peer held (stored envelopes, all kinds)."""
    rogue_fate: str = ""
    forfeit: bool = False
    acted: bool = True
    """The rogue did its trick (a game may end before a late one fires)."""

    def problems(self, expect: str) -> list[str]:
        """Each property this game broke."""
        out = []
        if self.crash:
            out.append(f"crash: {self.crash}")
        if self.stalled:
            out.append("stall")
        if self.diverged:
            out.append("honest seats diverged")
        out += [f"wrong blame: {b}" for b in self.wrong_blame]
        if self.honest_ejected:
            out.append(f"honest seats ejected: {self.honest_ejected}")
        if self.logs_differ:
            out.append("honest logs differ")
        if self.bad_verdict:
            out.append(f"verdict: {self.bad_verdict}")
        if expect == "convicted" and self.rogue_fate not in ("convicted", "finished-convicted"):
            out.append(f"the rogue was not convicted ({self.rogue_fate})")
        if expect == "ejected" and self.rogue_fate != "ejected":
            out.append(f"the rogue was not ejected ({self.rogue_fate})")
        return out


def _held(p: PeerProtocol) -> int:
    r = p.replica
    return sum(len(e.frame) for e in r.by_id.values())


def play(cls: type[rogues.Rogue], seats: int, seed: int, drop: float = 0.02,
         early_soft: float = 0.0) -> Report:
    """One game of ``seats`` seats with ``cls`` at a seed-chosen seat."""
    rng = random.Random(seed * 7919 + seats)
    rogue = rng.randrange(seats)
    report = Report(cls.name, seats, seed, rogue)
    _, mesh = build_mesh(TOY, seats, lambda seat, st: toy_choose(TOY, st, seat + seed),
                         seed=seed, rng=rng, drop=drop, factories={rogue: cls})
    honest = [i for i in range(seats) if i != rogue]
    try:
        mesh.start()
        _run(mesh, honest, report, early_soft)
    except Exception as exc:  # the report says what broke; the long run goes on
        report.crash = "".join(traceback.format_exception_only(exc)).strip()
        report.crash += " | " + traceback.format_exc().splitlines()[-3].strip()
        return report
    _judge(mesh, honest, rogue, report)
    rogue_proto = mesh.protos[rogue]
    report.acted = not isinstance(rogue_proto, rogues.Rogue) or rogue_proto.acted()
    if cls is rogues.BigChat and not mesh.big_to.intersection(honest):
        report.acted = False  # every copy of the big CHAT was dropped: its hole is silence
    if isinstance(rogue_proto, rogues.SplitAcks) and not any(
            rogue_proto.wrong_id in mesh.protos[i].replica.by_id for i in honest):
        report.acted = False  # every copy of the wrong ACK was dropped: nothing proves it
    if isinstance(rogue_proto, rogues.SplitMoves) and not any(
            rogue_proto.other_id in mesh.protos[i].replica.by_id for i in honest):
        report.acted = False  # every copy of the second MOVE was dropped: nothing proves it
    return report


def _run(mesh: Mesh, honest: list[int], report: Report, early_soft: float = 0.0) -> None:
    """Play with soft and hard deadlines until the honest seats finish or nothing moves.

    With ``early_soft``, soft deadlines also pass while frames are in flight; see
    :meth:`Mesh.run`."""
    for _ in range(40):
        mesh.run(max_events=400_000, stalls=4, hard_after=3, early_soft=early_soft)
        report.peak_bytes = max(report.peak_bytes, *(_held(mesh.protos[i]) for i in honest))
        if all(mesh.protos[i].is_over for i in honest):
            break
    mesh.close_after_grace(honest)


def _judge(mesh: Mesh, honest: list[int], rogue: int, report: Report) -> None:
    protos = mesh.protos
    report.stalled = not all(protos[i].is_over for i in honest)
    ids = {tuple(e.id for e in protos[i].replica.entries) for i in honest}
    report.diverged = len(ids) > 1
    for i in honest:
        for v in mesh.violations[i]:
            if v.seat != rogue:
                report.wrong_blame.append(f"seat {i} blamed seat {v.seat}: {v.rule} {v.detail}")
        for e in protos[i].replica.entries:
            if e.kind == "eject" and e.seat != rogue and e.seat not in report.honest_ejected:
                report.honest_ejected.append(e.seat)  # type: ignore[arg-type]
    logs = {bytes(mesh.logs[i]) for i in honest}
    report.logs_differ = len(logs) > 1
    first = protos[honest[0]].replica
    report.forfeit = first.forfeit
    convicted = rogue in first.convicted
    ejected = any(e.kind == "eject" and e.seat == rogue for e in first.entries)
    report.rogue_fate = ("convicted" if convicted else "ejected" if ejected
                         else "played on")
    for i in honest:
        verdict = verify_logs([parse_log(bytes(mesh.logs[i]))], TOY)
        named = {f.seat for f in verdict.faults}
        if verdict.status == "VALID":
            if verdict.forfeit != first.forfeit:
                report.bad_verdict = "verify and the replicas disagree on a forfeit"
        elif verdict.status == "INVALID" and named <= {rogue}:
            pass
        else:
            report.bad_verdict = (f"seat {i}'s log: {verdict.status} naming {sorted(named)} "
                                  f"{verdict.missing[:2]}")
            break


def _fate_ok(report: Report, expect: str) -> list[str]:
    out = report.problems(expect)
    if expect == "forfeit" and report.honest_ejected:
        # the two-alive vote may legally eject the one seat the game waits on: then the win is
        # a forfeit, recorded as such (never a played win)
        out = [p for p in out if not p.startswith("honest seats ejected")]
        if not report.forfeit:
            out.append("an honest seat was ejected and the game is not a forfeit")
    return out


def check(report: Report, cls: type[rogues.Rogue]) -> list[str]:
    """The properties a game of ``cls`` broke."""
    expect = cls.expect if report.seats >= cls.min_seats and report.acted else "harmless"
    if report.seats == 2 and cls.expect_two:
        expect = cls.expect_two
    return _fate_ok(report, expect)


def _one(name: str, seed: int, seats: int | None, drop: float, early_soft: float) -> int:
    """Play one game of behaviour ``name`` and print what it broke."""
    found = [cls for cls in rogues.BEHAVIOURS if cls.name == name]
    if not found:
        print(f"--seed needs --only with one of: {', '.join(c.name for c in rogues.BEHAVIOURS)}")
        return 2
    cls = found[0]
    r = play(cls, 2 + seed % 5 if seats is None else seats, seed, drop, early_soft)
    p = check(r, cls)
    print(f"{cls.name}, {r.seats} seats, seed {seed}, rogue {r.rogue} ({r.rogue_fate}"
          f"{', forfeit' if r.forfeit else ''}): {'; '.join(p) if p else 'ok'}")
    return 1 if p else 0


def main(argv: list[str] | None = None) -> int:
    """Run many games per behaviour; print the table; exit 1 if any game broke a property."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50, help="games per behaviour (50)")
    parser.add_argument("--drop", type=float, default=0.02, help="share of frames dropped")
    parser.add_argument("--only", default="", help="one behaviour by name")
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's seed (0); game g has seed first + g")
    parser.add_argument("--seed", type=int, default=None,
                        help="one game: this seed (with --only; seats from --seats)")
    parser.add_argument("--seats", type=int, default=None,
                        help="with --seed: the number of seats (else 2 + seed %% 5, as in the "
                             "long run)")
    parser.add_argument("--early-soft", type=float, default=0.0, metavar="P",
                        help="after each delivery, a soft deadline passes at a random seat "
                             "with this chance, while frames are in flight (0)")
    args = parser.parse_args(argv)
    if args.seed is not None:
        return _one(args.only, args.seed, args.seats, args.drop, args.early_soft)
    header = (f"{'behaviour':22} {'games':>5} {'stalls':>6} {'diverg':>6} {'blames':>6} "
              f"{'logdiff':>7} {'bad':>4} {'crash':>5} {'peak KB':>8} {'secs':>6}")
    print(header)
    failed = 0
    for cls in rogues.BEHAVIOURS:
        if args.only and cls.name != args.only:
            continue
        start = time.perf_counter()
        rows = []
        for g in range(args.first, args.first + args.games):
            rows.append(play(cls, 2 + g % 5, g, args.drop, args.early_soft))
        bad = [(r, check(r, cls)) for r in rows]
        bad = [(r, p) for r, p in bad if p]
        failed += len(bad)
        print(f"{cls.name:22} {len(rows):5} {sum(r.stalled for r in rows):6} "
              f"{sum(r.diverged for r in rows):6} {sum(bool(r.wrong_blame) for r in rows):6} "
              f"{sum(r.logs_differ for r in rows):7} {len(bad):4} "
              f"{sum(bool(r.crash) for r in rows):5} "
              f"{max(r.peak_bytes for r in rows) // 1024:8} "
              f"{time.perf_counter() - start:6.1f}", flush=True)
        for r, p in bad[:3]:
            print(f"    {r.seats} seats, seed {r.seed}, rogue {r.rogue}: {'; '.join(p)[:300]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
