#!/usr/bin/env python3
"""Proofs at scale: bot games between real peer processes on 127.0.0.1, under faults.

Each mode prints figures, game by game and then in sum. It is not a test: it takes minutes.

* ``kill``: games of 4 to 6 peers, each a ``python -m kotp2p`` process (host or join, a random
  bot on its seat, ``--plain``). A random peer is killed with SIGKILL at a random point, then
  ``kotp2p resume`` brings it back. Counted: envelopes and moves lost (logged by some peer when
  the kill came, missing from the final logs), honest seats blamed (faults named by ``verify``,
  votes to eject, wins by forfeit), logs VALID and byte-identical across peers.
* ``soak``: games of 6 peers over TCP. Each peer is one process that plays game after game
  (``scripts/chaos_peer.py --serve``), so its peak RSS covers them all. With ``--fresh``, six
  new ``kotp2p`` processes play each game, as players run them.
  Counted: desyncs (logs that differ, or are not VALID), stalls (a game that did not end in
  time, or one with a STALL or a vote to eject), peak RSS per peer from ``/proc/PID/status``
  (VmHWM), games a minute.
* ``net``: games of 4 peers whose mesh connections all go through a fault-injecting proxy
  (``scripts/chaos_proxy.py``): 100 ms +- 20 ms of delay, stalls, connections cut at random, and
  a 20 s partition of one peer mid-game. Counted as for ``kill``: every game must finish with
  identical VALID logs and nobody ejected.

Run it as ``scripts/chaos MODE [--games N] [--seed S] [--halloween] [--power-up]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kotp2p.net.files import PeersFile, read_log  # noqa: E402
from kotp2p.net.wire import Kind, open_envelope  # noqa: E402
from scripts.chaos_peer import DONE  # noqa: E402
from scripts.chaos_proxy import FaultProxy, Faults  # noqa: E402

Row = dict[str, Any]
"""The figures of one game, printed as one JSON line."""
PYTHON = sys.executable
KOTP2P = [PYTHON, "-m", "kotp2p"]
LAUNCHER = [PYTHON, str(ROOT / "scripts" / "chaos_peer.py")]
TURN = re.compile(r"^-- turn ", re.M)
GAME_DEADLINE = 300.0
"""Seconds a game may take before it counts as a stall."""


def _env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "KOTP2P_HOME": str(home), "PYTHONUNBUFFERED": "1", "PYTHONPATH": path,
            **(extra or {})}


class Peer:
    """One peer process, its home directory and its output files."""

    def __init__(self, home: Path, index: int, command: list[str],
                 env: dict[str, str] | None = None) -> None:
        self.home = home
        self.index = index
        self.command = command
        self.extra = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.runs = 0
        self.peak_kb = 0
        """The highest VmHWM seen of this peer's processes."""
        home.mkdir(parents=True, exist_ok=True)

    @property
    def out_path(self) -> Path:
        return self.home / f"out{self.runs}.txt"

    def start(self, args: list[str]) -> None:
        """Run ``args`` in a new process; its output goes to a new file."""
        self.runs += 1
        with open(self.out_path, "wb") as out, open(self.home / f"err{self.runs}.txt",
                                                      "wb") as err:
            self.proc = subprocess.Popen([*self.command, *args], env=_env(self.home, self.extra),
                                         stdin=subprocess.DEVNULL, stdout=out, stderr=err)

    def output(self) -> str:
        """What the current process printed so far."""
        try:
            return self.out_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def errors(self) -> str:
        """What the current process printed on its error stream so far."""
        try:
            return (self.home / f"err{self.runs}.txt").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def turns(self) -> int:
        """Turns the current process announced."""
        return len(TURN.findall(self.output()))

    def log(self) -> Path | None:
        """This peer's game log, once the game started."""
        logs = sorted((self.home / "data" / "games").glob("*.kotlog"))
        return logs[-1] if logs else None

    def game_port(self) -> int | None:
        """The port this peer's game listens on, from its peers file."""
        log = self.log()
        if log is None:
            return None
        try:
            return PeersFile.from_bytes(PeersFile.path_for(log).read_bytes()).port
        except (OSError, ValueError):
            return None

    def running(self) -> bool:
        """The current process still runs."""
        return self.proc is not None and self.proc.poll() is None

    def sample_rss(self) -> None:
        """Note the current process's peak RSS (VmHWM) so far, in kB."""
        if self.proc is None:
            return
        self.peak_kb = max(self.peak_kb, _vm_hwm_kb(self.proc.pid))

    def kill(self) -> None:
        """SIGKILL the current process and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()


def _vm_hwm_kb(pid: int) -> int:
    """The peak resident set size of process ``pid`` in kB, or 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class RssSampler:
    """Samples the peers' VmHWM a few times a second in a thread, until stopped."""

    def __init__(self, peers: list[Peer]) -> None:
        self.peers = peers
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(0.2):
            for p in self.peers:
                p.sample_rss()

    def close(self) -> None:
        """Stop sampling."""
        self.stop.set()
        self.thread.join()


def wait_for(what: str, check: Callable[[], object], timeout: float, step: float = 0.05) -> None:
    """Poll ``check()`` until it is true.

    :raises TimeoutError: it was not true within ``timeout`` seconds.
    """
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise TimeoutError(f"{what} did not happen within {timeout:g} s")
        time.sleep(step)


EXPANSIONS: list[str] = []
"""The host's expansion options, such as ``--power-up``, from the command line."""


def host_args(n: int, bot_delay: float, timeout: int) -> list[str]:
    """The arguments of a host whose random bot plays seat 0 of ``n`` seats, all others joining."""
    return ["host", "--bot", "random", "--seats", str(n), "--bots", "0", "--port", "0",
            "--no-announce", "--plain", "--bind", "127.0.0.1", "--bot-delay", str(bot_delay),
            "--timeout", str(timeout), *EXPANSIONS]


def join_args(port: int, bot_delay: float) -> list[str]:
    """The arguments of a joiner whose random bot plays its seat."""
    return ["join", f"127.0.0.1:{port}", "--bot", "random", "--plain", "--bind", "127.0.0.1",
            "--bot-delay", str(bot_delay)]


def start_game(peers: list[Peer], bot_delay: float, timeout: int) -> None:
    """Start the host (the first peer), then every joiner once the host's lobby is open."""
    host = peers[0]
    host.start(host_args(len(peers), bot_delay, timeout))
    port: list[int] = []

    def lobby_open() -> bool:
        m = re.search(r"hosting on port (\d+)", host.output())
        if m:
            port.append(int(m.group(1)))
        if host.proc is not None and host.proc.poll() is not None:
            raise RuntimeError(f"the host ended before its lobby opened: {host.errors()[-500:]}")
        return bool(m)

    wait_for("the host's lobby", lobby_open, 60)
    for p in peers[1:]:
        p.start(join_args(port[0], bot_delay))


def wait_all(peers: list[Peer], deadline: float) -> bool:
    """Wait for every peer process to end; False if some still ran at ``deadline``."""
    for p in peers:
        assert p.proc is not None
        left = deadline - time.monotonic()
        try:
            p.proc.wait(timeout=max(0.1, left))
        except subprocess.TimeoutExpired:
            return False
    return True


def play_through(peers: list[Peer], args: argparse.Namespace, row: Row, deadline: float,
                 midgame: Callable[[], None] | None = None) -> None:
    """Start the game, run ``midgame`` once the lobby is done, and wait until ``deadline`` for
    every peer to end. Then kill whatever still runs.

    It sets ``row["ended"]``, and ``row["note"]`` when the game never got going. The peers' peak
    RSS is sampled all along."""
    sampler = RssSampler(peers)
    try:
        start_game(peers, args.bot_delay, args.timeout)
        if midgame is not None:
            midgame()
        row["ended"] = wait_all(peers, deadline)
    except (TimeoutError, RuntimeError) as exc:
        row.update(ended=False, note=str(exc))
    finally:
        sampler.close()
        for p in peers:
            p.kill()


def exit_codes(peers: list[Peer]) -> list[int | None]:
    """Each peer's last exit code; None for one never started."""
    return [p.proc.returncode if p.proc else None for p in peers]


@dataclass
class Judgement:
    """What the logs of one game show."""

    identical: bool = False
    valid: bool = False
    kinds: Counter[str] = field(default_factory=Counter)
    faults: int = 0
    forfeit: bool = False
    turns: int = 0
    payloads: set[bytes] = field(default_factory=set)
    note: str = ""

    @property
    def blamed(self) -> int:
        """Honest seats blamed: faults named, votes to eject, a win by forfeit."""
        return self.faults + self.kinds["EJECT"] + int(self.forfeit)


def judge(peers: list[Peer], verify: bool = True) -> Judgement:
    """Compare the peers' logs byte for byte and have ``kotp2p verify`` check them.

    Without ``verify``, identical logs are not verified: their ``valid`` stays False."""
    j = Judgement()
    logs = [p.log() for p in peers]
    if any(log is None for log in logs):
        j.note = "a peer has no log"
        return j
    paths = [log for log in logs if log is not None]
    data = [log.read_bytes() for log in paths]
    j.identical = all(d == data[0] for d in data)
    checked = (paths[:1] if verify else []) if j.identical else paths
    for log in checked:
        res = subprocess.run([*KOTP2P, "verify", "--json", str(log)], env=_env(peers[0].home),
                             capture_output=True, text=True, timeout=300)
        try:
            verdict = json.loads(res.stdout)
        except json.JSONDecodeError:
            j.note = f"verify said: {res.stdout[-300:]} {res.stderr[-300:]}"
            return j
        j.valid = verdict["verdict"] == "VALID" if log == checked[0] else \
            j.valid and verdict["verdict"] == "VALID"
        j.faults += len(verdict["faults"])
        j.forfeit = j.forfeit or bool(verdict["forfeit"])
        j.turns = int(verdict["turns"])
        if j.note == "" and verdict["verdict"] != "VALID":
            j.note = f"{log.name}: {verdict['verdict']} {verdict['notes']}"
    contents = read_log(paths[0])
    g = contents.genesis
    j.payloads = set(contents.payloads)
    for payload in contents.payloads:
        j.kinds[open_envelope(payload, g.game_id, g.keys).kind.name] += 1
    return j


def logged_now(peers: list[Peer]) -> set[bytes]:
    """Every envelope any peer's log holds right now."""
    out: set[bytes] = set()
    for p in peers:
        log = p.log()
        if log is not None:
            with contextlib.suppress(OSError, ValueError):
                out.update(read_log(log).payloads)
    return out


def moves_in(payloads: set[bytes], peers: list[Peer]) -> int:
    """How many of ``payloads`` are MOVEs."""
    log = peers[0].log()
    if log is None or not payloads:
        return 0
    g = read_log(log).genesis
    return sum(open_envelope(p, g.game_id, g.keys).kind is Kind.MOVE for p in payloads)


def clean(work: Path, keep: bool, ok: bool) -> None:
    """Remove a game's directory, unless it is kept or the game went wrong."""
    if not keep and ok:
        shutil.rmtree(work, ignore_errors=True)


# -- kill ----------------------------------------------------------------------------------------


def kill_game(game: int, rng: random.Random, root: Path, args: argparse.Namespace) -> Row:
    """One game with one peer killed and resumed; the figures of that game."""
    n = rng.randint(4, 6)
    work = root / f"kill{game:03d}"
    peers = [Peer(work / f"p{i}", i, KOTP2P) for i in range(n)]
    victim = rng.randrange(n)
    at_turn = rng.randint(1, 12)
    delay = rng.uniform(0, 0.5)
    row: Row = {"game": game, "peers": n, "victim": victim, "at_turn": at_turn, "killed": False}
    start = time.monotonic()
    before: set[bytes] = set()

    def kill_and_resume() -> None:
        nonlocal before
        v = peers[victim]
        wait_for("the kill point", lambda: v.turns() >= at_turn or not v.running(), 120)
        time.sleep(delay)
        if v.running() and v.log() is not None:
            v.kill()
            row["killed"] = True
            before = logged_now(peers)
            v.start(["resume", "--bot", "random", "--plain", "--bind", "127.0.0.1",
                     "--bot-delay", str(args.bot_delay)])

    play_through(peers, args, row, start + GAME_DEADLINE, kill_and_resume)
    if not row["ended"] and "note" in row:
        before = set()  # the game never got going: nothing to call lost
    codes = exit_codes(peers)
    j = judge(peers)
    row["rss_mb"] = max(p.peak_kb for p in peers) / 1024
    lost = before - j.payloads if j.payloads else before
    row.update(seconds=round(time.monotonic() - start, 1), codes=codes, identical=j.identical,
               valid=j.valid, lost=len(lost), lost_moves=moves_in(lost, peers), blamed=j.blamed,
               stalls=j.kinds["STALL"], turns=j.turns, note=row.get("note") or j.note)
    ok = bool(row["ended"]) and j.identical and j.valid and not lost and not j.blamed and \
        all(c == 0 for c in codes)
    row["ok"] = ok
    clean(work, args.keep, ok)
    return row


def run_kill(args: argparse.Namespace, root: Path) -> None:
    rng = random.Random(args.seed)
    rows = []
    t0 = time.monotonic()
    for game in range(args.games):
        row = kill_game(game, rng, root, args)
        rows.append(row)
        print(json.dumps(row), flush=True)
    killed = [r for r in rows if r["killed"]]
    print(f"kill: {len(rows)} games of 4 to 6 peers in {time.monotonic() - t0:.0f} s, "
          f"{len(killed)} with a peer killed with SIGKILL and resumed "
          f"({sum(r['victim'] == 0 for r in killed)} of them the host)")
    print(f"  lost envelopes {sum(int(r['lost']) for r in rows)}, lost moves "
          f"{sum(int(r['lost_moves']) for r in rows)}, honest seats blamed "
          f"{sum(int(r['blamed']) for r in rows)}")
    print(f"  every log VALID: {sum(bool(r['valid']) for r in rows)}/{len(rows)}; byte-identical "
          f"across peers: {sum(bool(r['identical']) for r in rows)}/{len(rows)}; ended in time: "
          f"{sum(bool(r['ended']) for r in rows)}/{len(rows)}; all exit 0: "
          f"{sum(all(c == 0 for c in r['codes']) for r in rows)}/{len(rows)}")
    print(f"  games with a STALL: {sum(int(r['stalls']) > 0 for r in rows)}; peak RSS of one peer "
          f"process (VmHWM): {max(float(r['rss_mb']) for r in rows):.1f} MB")
    bad = [r["game"] for r in rows if not r["ok"]]
    print(f"  games not clean: {bad or 'none'}")


# -- soak ----------------------------------------------------------------------------------------


class Worker:
    """A peer process that plays game after game: ``chaos_peer.py --serve``."""

    def __init__(self, home: Path, index: int) -> None:
        self.home = home
        self.index = index
        home.mkdir(parents=True, exist_ok=True)
        read, self._write = os.pipe()
        self.out_path = home / "out.txt"
        with open(self.out_path, "wb") as out, open(home / "err.txt", "wb") as err:
            self.proc = subprocess.Popen([*LAUNCHER, "--serve", str(read)], env=_env(home),
                                         stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                         pass_fds=(read,))
        os.close(read)
        self._commands = os.fdopen(self._write, "w")
        self._read_at = 0
        self.done: list[tuple[int, int, int, int]] = []
        """``(exit code, VmHWM kB, VmRSS kB, live objects)`` after each command."""
        self.text = ""

    def send(self, argv: list[str]) -> None:
        """Run ``kotp2p argv`` next."""
        self._commands.write(json.dumps(argv) + "\n")
        self._commands.flush()

    def poll(self) -> str:
        """Read new output; note each command done. Return the new text."""
        with open(self.out_path, "rb") as f:
            f.seek(self._read_at)
            new = f.read().decode(errors="replace")
        cut = new.rfind("\n") + 1
        new = new[:cut]
        self._read_at += len(new.encode())
        for m in re.finditer(rf"^{DONE} (-?\d+) (\d+) (\d+) (\d+)$", new, re.M):
            self.done.append((int(m.group(1)), int(m.group(2)), int(m.group(3)),
                              int(m.group(4))))
        self.text = (self.text + new)[-20000:]
        return new

    def rss_kb(self) -> int:
        """The process's VmHWM now, in kB."""
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def stop(self) -> None:
        """End the process."""
        self._commands.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def soak_game(game: int, workers: list[Worker], args: argparse.Namespace) -> Row:
    """One game of the soak; its figures."""
    host = workers[0]
    before = [len(w.done) for w in workers]
    logs_before = [set(_logs(w.home)) for w in workers]
    start = time.monotonic()
    host.send(host_args(len(workers), args.bot_delay, args.timeout))
    port = None
    while port is None and time.monotonic() < start + 60:
        m = re.search(r"hosting on port (\d+)", host.poll())
        if m:
            port = int(m.group(1))
        else:
            time.sleep(0.02)
    row: Row = {"game": game}
    if port is None:
        row.update(ended=False, note="the host's lobby never opened")
        return row
    for w in workers[1:]:
        w.send(join_args(port, args.bot_delay))
    end = start + args.deadline
    while time.monotonic() < end:
        for w in workers:
            w.poll()
        if all(len(w.done) > b for w, b in zip(workers, before, strict=True)):
            break
        time.sleep(0.05)
    ended = all(len(w.done) > b for w, b in zip(workers, before, strict=True))
    row["ended"] = ended
    row["seconds"] = round(time.monotonic() - start, 2)
    if not ended:
        return row
    row["codes"] = [w.done[-1][0] for w in workers]
    row["rss_after_mb"] = max(round(w.done[-1][2] / 1024, 1) for w in workers)
    row["objects"] = max(w.done[-1][3] for w in workers)
    new_logs = [sorted(set(_logs(w.home)) - old) for w, old in zip(workers, logs_before, strict=True)]
    if any(len(n) != 1 for n in new_logs):
        row.update(identical=False, valid=False, note="a peer has no new log")
        return row
    data = [n[0].read_bytes() for n in new_logs]
    row["identical"] = all(d == data[0] for d in data)
    if game % args.verify_every == 0 or not row["identical"]:
        res = subprocess.run([*KOTP2P, "verify", "--json", str(new_logs[0][0])],
                             env=_env(workers[0].home), capture_output=True, text=True,
                             timeout=300)
        verdict = json.loads(res.stdout)
        row["valid"] = verdict["verdict"] == "VALID"
        row["turns"] = verdict["turns"]
    contents = read_log(new_logs[0][0])
    g = contents.genesis
    kinds = Counter(open_envelope(p, g.game_id, g.keys).kind.name for p in contents.payloads)
    row["stall_envelopes"] = kinds["STALL"] + kinds["EJECT"]
    return row


def _logs(home: Path) -> list[Path]:
    return sorted((home / "data" / "games").glob("*.kotlog"))


def fresh_soak_game(game: int, root: Path, args: argparse.Namespace) -> Row:
    """One game of the soak with ``--fresh``: six new processes, as players run a game."""
    work = root / f"soak{game:04d}"
    peers = [Peer(work / f"p{i}", i, KOTP2P) for i in range(6)]
    row: Row = {"game": game}
    start = time.monotonic()
    play_through(peers, args, row, start + args.deadline)
    verified = game % args.verify_every == 0
    j = judge(peers, verify=verified)
    codes = exit_codes(peers)
    row.update(seconds=round(time.monotonic() - start, 2), codes=codes, identical=j.identical,
               stall_envelopes=j.kinds["STALL"] + j.kinds["EJECT"],
               rss_mb=[round(p.peak_kb / 1024, 1) for p in peers])
    if verified or not j.identical:
        row.update(valid=j.valid, turns=j.turns)
    if j.note:
        row["note"] = j.note
    clean(work, args.keep, bool(row["ended"]) and j.identical and row.get("valid") is not False
          and not row["stall_envelopes"] and all(c == 0 for c in codes))
    return row


def run_soak(args: argparse.Namespace, root: Path) -> None:
    workers = [] if args.fresh else [Worker(root / f"w{i}", i) for i in range(6)]
    rows = []
    t0 = time.monotonic()
    try:
        for game in range(args.games):
            if args.fresh:
                row = fresh_soak_game(game, root, args)
                rows.append(row)
                print(json.dumps(row), flush=True)
                if not row["ended"]:
                    break
                continue
            row = soak_game(game, workers, args)
            row["rss_mb"] = [round(w.rss_kb() / 1024, 1) for w in workers]
            rows.append(row)
            print(json.dumps(row), flush=True)
            if not row["ended"]:
                break  # the peers are stuck in that game; the run cannot go on
            if game % 50 == 49:
                for w in workers:
                    for log in _logs(w.home):  # keep the disk small; their bytes were compared
                        log.unlink()
    finally:
        for w in workers:
            w.stop()
    elapsed = time.monotonic() - t0
    ended = [r for r in rows if r["ended"]]
    desyncs = sum(not r.get("identical", False) or r.get("valid") is False for r in ended)
    stalls = sum(not r["ended"] for r in rows) + sum(int(r.get("stall_envelopes", 0)) > 0
                                                     for r in ended)
    peak = max((max(r["rss_mb"]) for r in rows), default=0.0)
    how = "a new process per peer and game" if args.fresh else \
        f"one process each, {len(rows)} games in a row"
    print(f"soak: {len(rows)} games of 6 peers ({how}) "
          f"in {elapsed:.0f} s: {60 * len(rows) / elapsed:.1f} games a minute, so 1,000 games "
          f"take {1000 / (60 * len(rows) / elapsed) / 60:.1f} h")
    print(f"  desyncs {desyncs}, stalls {stalls}, games verified VALID "
          f"{sum(r.get('valid') is True for r in ended)}/{sum('valid' in r for r in ended)}, "
          f"exit codes not 0: {sum(any(c != 0 for c in r.get('codes', [])) for r in ended)}")
    print(f"  peak RSS per peer (VmHWM): {peak} MB at most; after game 1 "
          f"{rows[0]['rss_mb'] if rows else []} MB, after game {len(rows)} "
          f"{rows[-1]['rss_mb'] if rows else []} MB")
    if not args.fresh:
        print(f"  held after the last game (VmRSS after a collection): "
              f"{rows[-1].get('rss_after_mb') if rows else None} MB")


# -- net -----------------------------------------------------------------------------------------


def net_game(game: int, rng: random.Random, root: Path, args: argparse.Namespace,
             proxy: FaultProxy) -> Row:
    """One game of 4 peers through the fault proxy, with one peer partitioned mid-game."""
    n = args.peers or 4
    work = root / f"net{game:03d}"
    peers = [Peer(work / f"p{i}", i, LAUNCHER, {"CHAOS_PROXY": str(proxy.port),
                                                 "CHAOS_PEER": str(i)}) for i in range(n)]
    victim = rng.randrange(n)
    at_turn = rng.randint(2, 8)
    row: Row = {"game": game, "peers": n, "partitioned": victim,
                              "at_turn": at_turn}
    start = time.monotonic()
    proxy.reset_counts()

    def partition() -> None:
        wait_for("every peers file", lambda: all(p.game_port() for p in peers), 120)
        for p in peers:
            proxy.name_port(p.game_port() or 0, p.index)
        v = peers[victim]
        wait_for("the partition point",
                 lambda: v.turns() >= at_turn or not v.running(), 300)
        if v.running():
            proxy.partition(victim, args.partition)
            row["partition_s"] = args.partition

    play_through(peers, args, row, start + args.deadline, partition)
    codes = exit_codes(peers)
    j = judge(peers)
    row.update(seconds=round(time.monotonic() - start, 1), codes=codes, identical=j.identical,
               valid=j.valid, blamed=j.blamed, stalls=j.kinds["STALL"], turns=j.turns,
               faults_injected=dict(proxy.counts), note=row.get("note") or j.note)
    ok = bool(row["ended"]) and j.identical and j.valid and not j.blamed and \
        all(c == 0 for c in codes)
    row["ok"] = ok
    clean(work, args.keep, ok)
    return row


def run_net(args: argparse.Namespace, root: Path) -> None:
    rng = random.Random(args.seed)
    proxy = FaultProxy(Faults(), random.Random(rng.random()))
    thread = threading.Thread(target=proxy.run, daemon=True)
    thread.start()
    proxy.ready.wait(10)
    rows = []
    t0 = time.monotonic()
    for game in range(args.games):
        row = net_game(game, rng, root, args, proxy)
        rows.append(row)
        print(json.dumps(row), flush=True)
    proxy.stop()
    print(f"net: {len(rows)} games of {args.peers or 4} peers through the fault proxy "
          f"({Faults().describe()}), a {args.partition:g} s partition of one peer each, hard "
          f"timeout {args.timeout} s, in {time.monotonic() - t0:.0f} s")
    print(f"  ended {sum(bool(r['ended']) for r in rows)}/{len(rows)}; VALID "
          f"{sum(bool(r['valid']) for r in rows)}; byte-identical "
          f"{sum(bool(r['identical']) for r in rows)}; honest seats blamed "
          f"{sum(int(r['blamed']) for r in rows)}; games that paused (a STALL signed) "
          f"{sum(int(r['stalls']) > 0 for r in rows)}")
    bad = [r["game"] for r in rows if not r["ok"]]
    print(f"  games not clean: {bad or 'none'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("kill", "soak", "net"))
    parser.add_argument("--games", type=int, default=None,
                        help="games to play (default: 50 for kill, 1000 for soak, 5 for net)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice")
    parser.add_argument("--halloween", action="store_true", help="the games play Halloween")
    parser.add_argument("--power-up", action="store_true", help="the games play Power Up!")
    parser.add_argument("--bot-delay", type=float, default=0.0,
                        help="seconds each bot waits before deciding (default 0)")
    parser.add_argument("--timeout", type=int, default=None,
                        help="the hard timeout of each game (default 20 for kill, 120 otherwise)")
    parser.add_argument("--peers", type=int, default=None, help="peers per net game (default 4)")
    parser.add_argument("--partition", type=float, default=20.0,
                        help="seconds one peer is cut off in each net game (default 20)")
    parser.add_argument("--deadline", type=float, default=None,
                        help="seconds a game may take before it counts as a stall")
    parser.add_argument("--verify-every", type=int, default=10,
                        help="soak: run kotp2p verify on every Nth game (default 10); every game's "
                        "logs are compared byte for byte")
    parser.add_argument("--fresh", action="store_true",
                        help="soak: start six new processes for every game, as players do, instead "
                        "of six that play game after game")
    parser.add_argument("--work", type=Path, default=None, help="where the games' files go")
    parser.add_argument("--keep", action="store_true", help="keep the files of clean games too")
    args = parser.parse_args()
    EXPANSIONS.extend(f"--{name}" for name, on in (("halloween", args.halloween),
                                                  ("power-up", args.power_up)) if on)
    if args.games is None:
        args.games = {"kill": 50, "soak": 1000, "net": 5}[args.mode]
    if args.timeout is None:
        args.timeout = 20 if args.mode == "kill" else 120
    if args.deadline is None:
        args.deadline = {"kill": GAME_DEADLINE, "soak": 120.0, "net": 900.0}[args.mode]
    root = args.work or Path(tempfile.mkdtemp(prefix=f"chaos-{args.mode}-"))
    root.mkdir(parents=True, exist_ok=True)
    print(f"chaos {args.mode}: --games {args.games} --seed {args.seed}; files in {root} "
          "(kept for games that went wrong)", flush=True)
    {"kill": run_kill, "soak": run_soak, "net": run_net}[args.mode](args, root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
