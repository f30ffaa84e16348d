"""Bots that think away from the loop: the session hands their decisions out as questions, and
the trio driver answers them on worker threads while it goes on taking inputs."""

from __future__ import annotations

import threading

import trio

from kotp2p.net.files.sinks import MemorySink
from kotp2p.net.session import Chat, ChatLine, Done, Question, Result, Session, Timeouts
from kotp2p.net.transport.runner import Commands, run_session
from kotp2p.net.wire import Value
from kotp2p.rules import State
from tests.net.harness import Recorder
from tests.session.kit import session, table, verdict


def _one_process(think_aside: bool) -> Session:
    t = table(3, seed=4)
    return session(t, [0, 1, 2], timeouts=Timeouts(None, None), seed=2, think_aside=think_aside)


def test_a_bot_that_thinks_aside_signs_nothing_until_its_question_is_answered() -> None:
    s = _one_process(think_aside=True)
    s.start(0.0)
    (q,) = s.questions()
    step = s.protocol.replica.step
    assert s.questions() == []  # asked once, however often the session runs
    s.tick(1.0)
    assert s.questions() == [] and s.protocol.replica.step == step
    s.answer(q, q.answer(), 2.0)
    assert s.protocol.replica.step > step  # the move landed


def test_a_stale_answer_is_dropped_and_the_game_ends_as_if_the_bots_decided_in_place() -> None:
    aside, inline = _one_process(think_aside=True), _one_process(think_aside=False)
    aside.start(0.0)
    inline.start(0.0)
    old: tuple[Question, Value] | None = None
    now = 0.0
    while not aside.is_over:
        now += 1.0
        (q,) = aside.questions()
        if old is not None:
            aside.answer(*old, now)  # answered already: it changes nothing
        old = (q, q.answer())
        aside.answer(*old, now)
    assert inline.is_over and aside.result == inline.result
    assert aside.state.digest() == inline.state.digest()
    assert verdict(aside.log).status == "VALID"  # type: ignore[arg-type]


async def test_the_loop_takes_a_command_while_a_bot_is_still_thinking() -> None:
    """A bot blocked in thought does not block the loop: a chat line sent meanwhile is taken
    and shown, and the loop sleeps rather than spin while it waits. Once the bot answers, the
    game plays to its end."""
    t = table(2, seed=5)
    thinking, release = threading.Event(), threading.Event()
    base = session(t, [0, 1], me=0, timeouts=Timeouts(None, None), seed=3)
    bot = base.seats[1].decide
    assert bot is not None

    def slow(state: State) -> Value:
        thinking.set()
        release.wait(30)
        return bot(state)

    base.seats[1].decide = slow
    log = MemorySink()
    log.append([t.genesis.frame()])
    s = Session(t.genesis, base.engine, base.seats, me=0, log=log, journal=MemorySink(),
                timeouts=Timeouts(None, None), think_aside=True)
    ticks = 0
    tick = s.tick

    def counted(now: float) -> None:
        nonlocal ticks
        ticks += 1
        tick(now)

    s.tick = counted  # type: ignore[method-assign]
    screen = Recorder()
    answers: list[Result] = []
    send, receive = trio.open_memory_channel[Chat](1)

    async def type_while_it_thinks() -> None:
        with trio.fail_after(20):
            while not thinking.is_set():
                await trio.sleep(0.01)
            before = ticks
            await send.send(Chat("still there?"))
            while not answers:
                await trio.sleep(0.01)
            await trio.sleep(0.2)
        assert any(isinstance(u, ChatLine) and u.text == "still there?" for u in screen.seen)
        assert ticks - before < 10  # woken by what arrives, not by a bot's delay long past
        release.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(type_while_it_thinks)
        with trio.fail_after(60):
            over = await run_session(s, view=screen,  # type: ignore[arg-type]
                                     commands=Commands(receive, lambda c, r: answers.append(r)))
    assert over and answers == [Done()]
    assert verdict(log).status == "VALID"
