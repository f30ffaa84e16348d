"""The session's member objects on their own: the deadlines' times and the outbox."""

from __future__ import annotations

from kotp2p.net.session import Timeouts
from kotp2p.net.session.deadlines import Deadlines
from kotp2p.net.session.outbox import Outbox


def test_the_soft_deadline_passes_every_soft_seconds_and_the_first_is_told_apart() -> None:
    d = Deadlines(Timeouts(soft=10.0, hard=None), bot_delay=0.0)
    d.begin(5.0)
    d.progressed(0, 5.0)
    assert d.soft_due(14.0) is None
    assert d.next_due(lambda seat: False) == 15.0
    assert d.soft_due(15.0) == "first"
    assert d.soft_due(20.0) is None
    assert d.soft_due(26.0) == "again"
    assert d.next_due(lambda seat: False) == 36.0
    d.progressed(1, 30.0)  # progress: the wait starts again
    assert d.since == 30.0 and d.soft_due(40.0) == "first"


def test_the_hard_deadline_passes_once_per_wait() -> None:
    d = Deadlines(Timeouts(soft=None, hard=60.0), bot_delay=0.0)
    d.begin(0.0)
    d.progressed(0, 0.0)
    assert not d.hard_due(59.0) and not d.hard_passed(59.0)
    assert d.next_due(lambda seat: False) == 60.0
    assert d.hard_due(60.0) and not d.hard_due(61.0) and d.hard_passed(61.0)
    assert d.next_due(lambda seat: False) is None
    d.progressed(1, 70.0)
    assert not d.hard_due(129.0) and d.hard_due(130.0)


def test_a_bot_is_ready_its_delay_after_its_turn_came() -> None:
    d = Deadlines(Timeouts(None, None), bot_delay=2.0)
    assert not d.bot_ready(1, 7, 1.0)
    assert d.next_due(lambda seat: seat == 1) == 3.0
    assert d.next_due(lambda seat: False) is None  # a human's turn wakes nothing
    assert not d.bot_ready(1, 7, 2.5) and d.bot_ready(1, 7, 3.0)
    assert not d.bot_ready(1, 8, 3.0)  # a new step: a new turn
    d.turn_done(1)
    assert d.next_due(lambda seat: True) is None


def test_the_outbox_sends_each_frame_once_per_drain_and_only_its_own_are_urgent() -> None:
    box = Outbox(forward_delay=0.0)
    box.send(b"\0\0\0\1a", [], forwarded=False)
    assert not box.urgent and box.drain() == []
    box.send(b"\0\0\0\1a", [2], forwarded=True)
    assert not box.urgent
    box.send(b"\0\0\0\1b", [2, 3], forwarded=False)
    box.send(b"\0\0\0\1b", [3], forwarded=False)
    assert box.urgent and box.next_due() is None
    assert box.drain() == [(2, b"\0\0\0\1a"), (2, b"\0\0\0\1b"), (3, b"\0\0\0\1b")]
    assert not box.urgent and box.drain() == []
    box.send(b"\0\0\0\1b", [3], forwarded=False)
    assert box.drain() == [(3, b"\0\0\0\1b")]
