"""The admission of a listener, sans-IO: time and chance are given, so every answer is exact."""

from __future__ import annotations

import os

from kotp2p.net.lobby import (
    Admission,
    AdmissionConfig,
    DialerHandshake,
    Ticket,
    Told,
    Turned,
    claimed_key,
)
from kotp2p.net.wire import Identity, Why

KNOWN = b"k" * 32
STRANGER = b"s" * 32


def _admit(adm: Admission, address: str, now: float = 0.0) -> Ticket:
    got = adm.arrive(address, now)
    assert isinstance(got, Ticket), got
    return got


def test_one_address_holds_few_pending_handshakes_and_a_newcomer_still_gets_in() -> None:
    adm = Admission(AdmissionConfig(per_address=4), rng=lambda: 0.0)
    held = [adm.arrive("10.0.0.9", 0.0) for _ in range(500)]
    assert sum(isinstance(t, Ticket) for t in held) == 4
    assert isinstance(adm.arrive("10.0.0.1", 0.0), Ticket)
    assert adm.report(0.0) == ("turned away 496 connections from 1 address in the last 1 s "
                               "(496 over the limit per address)")


def test_many_pending_handshakes_are_dropped_at_random_then_all_at_full() -> None:
    cfg = AdmissionConfig(start=4, rate=0.5, full=8, per_address=100)
    draws = iter([0.9, 0.4] + [0.99] * 10)
    adm = Admission(cfg, rng=lambda: next(draws))
    for _ in range(4):
        _admit(adm, "10.0.0.9")
    assert isinstance(adm.arrive("10.0.0.9", 0), Ticket)  # 0.9 >= 0.5: kept
    assert isinstance(adm.arrive("10.0.0.9", 0), Turned)  # 0.4 < 0.5 + 0.5/4: dropped
    assert isinstance(adm.arrive("10.0.0.1", 0), Ticket)  # an address with none pending: spared
    for _ in range(2):
        _admit(adm, "10.0.0.2")
    assert adm.pending == 8
    assert isinstance(adm.arrive("10.0.0.3", 0), Turned)  # full: even a newcomer waits


def test_a_known_key_leaves_the_pending_pool_and_strangers_claiming_it_are_bounded() -> None:
    adm = Admission(AdmissionConfig(per_address=2, per_key=2), known=lambda k: k == KNOWN)
    a, b = _admit(adm, "10.0.0.9"), _admit(adm, "10.0.0.9")
    assert adm.hello(a, KNOWN, 1.0) == [] and adm.pending == 1
    assert adm.hello(b, KNOWN, 2.0) == [a]  # one claim per address: the newer replaces it
    c = _admit(adm, "10.0.0.8")
    assert adm.hello(c, KNOWN, 3.0) == []
    real = _admit(adm, "10.0.0.1")
    assert adm.hello(real, KNOWN, 4.0) == [b]  # over the cap: the oldest claim goes
    assert adm.authenticated(real, KNOWN, 4.0) == [] and real.stage == "known"
    stranger = _admit(adm, "10.0.0.7")
    assert adm.hello(stranger, STRANGER, 5.0) == [] and stranger.stage == "pending"


def test_unseated_joiners_replace_the_oldest_of_their_address_or_of_the_busiest() -> None:
    adm = Admission(AdmissionConfig(unseated=4, unseated_per_address=2), seats=True)
    squat = []
    for i in range(3):
        t = _admit(adm, "10.0.0.9", i)
        squat.append((t, adm.authenticated(t, bytes([i]) * 32, float(i))))
    assert [dropped for _, dropped in squat] == [[], [], [squat[0][0]]]
    other = [_admit(adm, "10.0.0.8", 9) for _ in range(2)]
    assert [adm.authenticated(t, bytes([9 + i]) * 32, 9) for i, t in enumerate(other)] == [[], []]
    honest = _admit(adm, "10.0.0.1", 10)
    dropped = adm.authenticated(honest, b"h" * 32, 10)
    assert dropped == [squat[1][0]] and honest.stage == "unseated"
    adm.seated(honest)
    assert [t.address for t in adm.waiting()] == ["10.0.0.9", "10.0.0.8", "10.0.0.8"]


def test_wrong_codes_from_one_address_back_off_and_the_host_is_told_once_per_step() -> None:
    adm = Admission(AdmissionConfig(free_wrong_codes=3, first_wait=10))
    told = []
    for now in (0.0, 1.0, 2.0):
        t = _admit(adm, "192.168.1.7", now)
        told.append(adm.failed(t, Why.WRONG_JOIN_CODE, False, now))
        adm.closed(t)
    assert told == [Told(each=True), Told(), Told(line="3 wrong join codes from 192.168.1.7: it "
                                                     "must wait 10 s before its next try")]
    refused = adm.arrive("192.168.1.7", 5.0)
    assert refused == Turned("too many wrong join codes from 192.168.1.7: wait 7 s",
                             Why.WRONG_JOIN_CODE)
    assert isinstance(adm.arrive("192.168.1.8", 5.0), Ticket)
    t = _admit(adm, "192.168.1.7", 12.0)
    assert adm.failed(t, Why.WRONG_JOIN_CODE, False, 12.0).line == (
        "4 wrong join codes from 192.168.1.7: it must wait 20 s before its next try")


def test_only_a_few_failures_a_interval_are_told_by_themselves() -> None:
    adm = Admission(AdmissionConfig(told_each=3, report_every=10, per_address=100))
    each = [adm.failed(_admit(adm, f"10.0.0.{i}", 1.0), Why.OTHER_VERSION, False, 1.0).each
            for i in range(6)]
    assert each == [True, True, True, False, False, False]
    assert adm.failed(_admit(adm, "10.0.0.9", 12.0), Why.OTHER_VERSION, False, 12.0).each
    assert adm.report(12.0) == ("turned away 3 connections from 3 addresses in the last 11 s "
                                "(3 handshake failed (other-version))")


def test_the_host_turns_a_key_away_for_good_and_its_address_for_a_while() -> None:
    adm = Admission(AdmissionConfig(kick_ban=60), seats=True)
    adm.ban(b"b" * 32, "10.0.0.9", 0.0)
    assert adm.arrive("10.0.0.9", 30.0) == Turned(None)
    t = _admit(adm, "10.0.0.9", 61.0)
    assert adm.hello(t, b"b" * 32, 61.0) == [t]
    other = _admit(adm, "10.0.0.5", 61.0)
    assert adm.authenticated(other, b"b" * 32, 61.0) == [other]


def test_the_summary_comes_once_per_interval_with_every_reason() -> None:
    adm = Admission(AdmissionConfig(per_address=1, report_every=10), seats=True)
    _admit(adm, "10.0.0.9", 0.0)
    adm.arrive("10.0.0.9", 0.0)
    assert adm.report(0.0) is not None
    for now in range(1, 9):
        adm.arrive("10.0.0.9", float(now))
        assert adm.report(float(now)) is None
    t = _admit(adm, "10.0.0.2", 9.0)
    adm.failed(t, Why.OTHER, True, 9.0)
    assert adm.report(10.0) == ("turned away 9 connections from 2 addresses in the last 9 s "
                                "(8 over the limit per address, 1 silent for 3 s)")
    assert adm.report(11.0) is None


def test_the_hello_names_the_key_the_dialer_claims() -> None:
    me = Identity.generate("Alice")
    hs = DialerHandshake(me, engine_id="e", challenge=os.urandom(32))
    assert claimed_key(hs.hello()[4:]) == me.public_key
    assert claimed_key(b"\x00garbage") is None


def test_strangers_claiming_a_known_key_again_and_again_never_push_out_its_holder() -> None:
    adm = Admission(AdmissionConfig(per_key=3), known=lambda k: k == KNOWN)
    now = 0.0
    for _ in range(20):
        for source in ("10.0.0.7", "10.0.0.8", "10.0.0.9"):
            now += 1
            for old in adm.hello(_admit(adm, source, now), KNOWN, now):
                adm.closed(old)
    real = _admit(adm, "10.0.0.1", now)
    dropped = adm.hello(real, KNOWN, now)
    assert len(dropped) == 1 and dropped[0].address != "10.0.0.1"
    for old in dropped:
        adm.closed(old)
    for source in ("10.0.0.7", "10.0.0.8", "10.0.0.9") * 5:
        now += 1
        for old in adm.hello(_admit(adm, source, now), KNOWN, now):
            assert old is not real
            adm.closed(old)
    assert adm.authenticated(real, KNOWN, now) == [] and real.stage == "known"
