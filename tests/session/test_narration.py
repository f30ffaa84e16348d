"""What a whole game looks like in the plain view: each move said once, minor events hidden,
each turn opened by a heading."""

from __future__ import annotations

import io
from itertools import pairwise

from kotp2p.net.session import MoveApplied, Narrated, Timeouts
from kotp2p.ui import PlainView
from tests.session.kit import session, table


def _game(seed: int) -> tuple[list[object], list[str]]:
    t = table(4, seed=seed)
    s = session(t, range(4), timeouts=Timeouts(None, None))
    s.start(0.0)
    ups = s.updates()
    out = io.StringIO()
    PlainView(s, out).show(ups)
    return list(ups), out.getvalue().splitlines()


def test_a_move_is_said_once_and_turns_open_with_a_heading() -> None:
    ups, lines = _game(seed=3)
    said = [ln.lstrip("* ").strip() for ln in lines]
    for a, b in pairwise(said):
        assert not b.startswith(a), f"said twice: {a!r} then {b!r}"
    assert not any("(the only choice)" in ln for ln in lines)  # minor events stay hidden
    heads = [ln for ln in lines if ln.startswith("-- turn ")]
    assert heads and all(ln.endswith(" --") for ln in heads)
    assert heads[0].startswith("-- turn 1: ")
    # Moves whose events tell nothing before the next turn still say what they were.
    assert any(ln.startswith("* ") and "re-rolls" in ln for ln in lines)
    # The session marks which moves are told, and never leaves one unsaid.
    moves = [u for u in ups if isinstance(u, MoveApplied)]
    assert any(not m.told for m in moves) and any(m.told for m in moves)
    for i, u in enumerate(ups):
        if isinstance(u, MoveApplied) and not u.told:
            nxt = ups[i + 1]
            assert isinstance(nxt, Narrated) and not nxt.heading


def test_staying_in_tokyo_and_buying_are_said_once() -> None:
    for seed in (1, 2, 3):
        _, lines = _game(seed)
        stays = [ln for ln in lines if "stays in Tokyo" in ln]
        buys = [ln for ln in lines if " buys " in ln and "buys nothing" not in ln]
        assert all(not ln.startswith("* ") for ln in stays + buys)
        assert all(" for " in ln for ln in buys)  # the event, with the price
