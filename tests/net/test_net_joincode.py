"""The join code against strangers: an eavesdropper, a guessing joiner and a fake host.

Each test plays the stranger with what it can see on the wire, as the handshake frames it.
"""

from __future__ import annotations

import hashlib
import hmac

import pytest

from kotp2p.net.lobby import (
    AcceptorHandshake,
    ChallengeCache,
    DialerHandshake,
    HandshakeFailed,
    refusal,
)
from kotp2p.net.wire import Value, codec
from tests.net.lobby_kit import ident

ENGINE = "kotp2p-0.1.0+cards-abc"
REAL = "4821"
CANDIDATES = [f"{n:04d}" for n in range(10_000)]
HOST, JOINER = ident("host"), ident("joiner")

Frames = list[tuple[str, list[Value]]]
"""What a stranger on the path records: who sent each frame, and the frame."""


def challenge(tag: str) -> bytes:
    return hashlib.sha256(b"challenge " + tag.encode()).digest()


def decode(frames: list[bytes]) -> list[bytes]:
    return [p for f in frames for p in codec.FrameDecoder().feed(f)]


def value(payload: bytes) -> list[Value]:
    v = codec.unpack(payload)
    assert isinstance(v, list)
    return v


def converse(dialer: DialerHandshake, acceptor: AcceptorHandshake) -> Frames:
    """Run both sides to the end and record every frame; a failure is raised, with the frames
    recorded so far as ``exc.recorded``."""
    recorded: Frames = []
    to_acceptor = decode([dialer.hello()])
    try:
        while not (dialer.done and acceptor.done):
            to_dialer: list[bytes] = []
            for p in to_acceptor:
                recorded.append(("dialer", value(p)))
                to_dialer += decode(acceptor.receive(p))
            to_acceptor = []
            for p in to_dialer:
                recorded.append(("acceptor", value(p)))
                to_acceptor += decode(dialer.receive(p))
    except HandshakeFailed as exc:
        exc.recorded = recorded  # type: ignore[attr-defined]
        raise
    return recorded


def handshake(code: str | None, host_code: str | None = None) -> Frames:
    """One honest lobby handshake with fixed keys and challenges, and ``code`` on both sides
    unless ``host_code`` differs."""
    d = DialerHandshake(JOINER, engine_id=ENGINE, challenge=challenge("d"), join_code=code)
    a = AcceptorHandshake([HOST], engine_id=ENGINE, challenge=challenge("a"),
                          join_code=code if host_code is None else host_code)
    return converse(d, a)


def fields(recorded: Frames) -> list[bytes]:
    return [f for _, v in recorded for f in v if isinstance(f, bytes)]


def brute_force(recorded: Frames) -> list[str]:
    """The candidate codes that fit what was recorded, found as an eavesdropper would: each
    candidate's proof is worked out from the public HELLOs and looked for among the bytes seen.
    Against a proof that is a function of the code and public values, this finds the code."""
    hellos = [v for _, v in recorded if v[0] == "kotp2p-hello"]
    assert len(hellos) == 2, "the recording holds both HELLOs"
    dialer_key, acceptor_challenge = hellos[0][4], hellos[1][6]
    assert isinstance(dialer_key, bytes) and isinstance(acceptor_challenge, bytes)
    seen = set(fields(recorded))
    found = []
    for code in CANDIDATES:
        key = hashlib.sha256(b"kotp2p join code v1\x00" + code.encode()).digest()
        if hmac.new(key, acceptor_challenge + dialer_key, hashlib.sha256).digest() in seen:
            found.append(code)
    return found


def test_an_eavesdropper_who_recorded_a_handshake_cannot_single_out_the_code() -> None:
    """Failure 4: from one recorded honest handshake, 10^4 candidate codes are tried offline."""
    recorded = handshake(REAL)
    assert brute_force(recorded) == []


def test_every_byte_that_depends_on_the_code_also_depends_on_fresh_secrets() -> None:
    """Run the same handshake (same keys, challenges and code) twice: a byte that changes with
    the code must also change from one run to the next. Otherwise it is a function of the code
    and public values, and an eavesdropper can test candidates against it."""
    first, again, other = fields(handshake(REAL)), fields(handshake(REAL)), fields(handshake("1234"))
    assert len(first) == len(again) == len(other)
    code_bound = [i for i, (f, o) in enumerate(zip(first, other, strict=True)) if f != o]
    assert code_bound, "the code leaves a trace on the wire"
    for i in code_bound:
        assert first[i] != again[i], f"field {i} is a function of the code and public values"


def test_a_host_without_the_code_is_told_to_the_joiner() -> None:
    with pytest.raises(HandshakeFailed) as exc:
        handshake(REAL, host_code="")
    assert exc.value.why.value == "host-lacks-join-code"


def test_a_fake_host_with_another_code_is_told_to_the_joiner_and_learns_nothing_to_search() -> None:
    """A stranger poses as the host with a code of its own. The joiner breaks off before it
    proves anything, so the stranger has nothing to try the 10^4 codes against."""
    with pytest.raises(HandshakeFailed) as exc:
        handshake(REAL, host_code="1234")
    assert exc.value.why.value == "host-lacks-join-code" and not exc.value.by_peer
    assert "does not know the join code" in exc.value.reason
    assert brute_force(exc.value.recorded) == []  # type: ignore[attr-defined]


def test_a_fake_host_that_answers_without_the_code_learns_nothing_to_search() -> None:
    """A stranger's lobby answers a joiner's HELLO as if no code were needed, hoping the joiner
    proves its code anyway."""
    joiner = DialerHandshake(JOINER, engine_id=ENGINE, challenge=challenge("d"), join_code=REAL)
    hello = decode([joiner.hello()])[0]
    as_plain = value(hello)
    as_plain[1] = 1  # the stranger reads it as a HELLO without a code
    stranger = AcceptorHandshake([HOST], engine_id=ENGINE, challenge=challenge("a"))
    sent: Frames = [("dialer", value(hello))]
    failed: HandshakeFailed | None = None
    try:
        for p in decode(stranger.receive(codec.pack(as_plain))):
            sent.append(("acceptor", value(p)))
            sent += [("dialer", value(q)) for q in decode(joiner.receive(p))]
    except HandshakeFailed as exc:
        failed = exc
    assert brute_force(sent) == []
    assert failed is not None and failed.why.value == "host-lacks-join-code"


def test_a_stranger_with_another_host_key_is_told_as_such_before_the_code() -> None:
    """The joiner dials the host key its list of games showed. A stranger's plain answer with
    another key is told as the wrong host, the more telling of the two faults."""
    joiner = DialerHandshake(JOINER, engine_id=ENGINE, challenge=challenge("d"), join_code=REAL,
                             to_key=ident("the real host").public_key)
    hello = value(decode([joiner.hello()])[0])
    hello[1] = 1
    stranger = AcceptorHandshake([HOST], engine_id=ENGINE, challenge=challenge("a"))
    with pytest.raises(HandshakeFailed) as exc:
        for p in decode(stranger.receive(codec.pack(hello))):
            joiner.receive(p)
    assert exc.value.why.value == "wrong-seat"


@pytest.mark.parametrize("second_try", ["hello", "pake"])
def test_one_connection_tests_one_code(second_try: str) -> None:
    """Failure 3: a guessing joiner gets one answer per connection. After the host's answer,
    a second try on the same connection counts as a wrong code, and ends it."""
    host = AcceptorHandshake([HOST], engine_id=ENGINE, challenge=challenge("a"), join_code=REAL)
    guess = DialerHandshake(JOINER, engine_id=ENGINE, challenge=challenge("d"), join_code="1111")
    answer = [f for p in decode([guess.hello()]) for f in host.receive(p)]
    assert answer, "the host answered the first guess"
    again = DialerHandshake(JOINER, engine_id=ENGINE, challenge=challenge("d2"), join_code="4822")
    frames = decode([again.hello()])
    with pytest.raises(HandshakeFailed) as exc:
        for p in frames if second_try == "hello" else frames[1:]:
            host.receive(p)
    assert exc.value.why.value == "wrong-join-code" and not exc.value.by_peer


def test_a_wrong_code_is_refused_at_the_host_as_a_wrong_code() -> None:
    """What the host counts: the joiner's answer to its key confirmation."""
    host = AcceptorHandshake([HOST], engine_id=ENGINE, challenge=challenge("a"), join_code=REAL)
    joiner = DialerHandshake(JOINER, engine_id=ENGINE, challenge=challenge("d"), join_code="1111")
    answer: list[bytes] = []
    for p in decode([joiner.hello()]):
        answer += host.receive(p)
    with pytest.raises(HandshakeFailed) as told:
        for p in decode(answer):
            joiner.receive(p)
    with pytest.raises(HandshakeFailed) as counted:
        host.receive(decode([refusal(told.value.reason, told.value.why)])[0])
    assert counted.value.why.value == "wrong-join-code"


def test_a_stranger_cannot_make_the_host_spend_spake2_without_a_well_formed_hello() -> None:
    """SPAKE2 costs milliseconds of CPU. The host spends them only after the HELLO passed the
    cheap checks: a HELLO of another engine or a replayed one, or a SPAKE2 message without a
    HELLO, costs the host no exchange (it draws no secret for one)."""
    drawn: list[int] = []

    def entropy(n: int) -> bytes:
        drawn.append(n)
        return bytes([7]) * n

    def host(seen: ChallengeCache) -> AcceptorHandshake:
        return AcceptorHandshake([HOST], engine_id=ENGINE, challenge=challenge("a"),
                                 join_code=REAL, seen=seen, entropy=entropy)

    seen = ChallengeCache()
    frames = decode([DialerHandshake(JOINER, engine_id=ENGINE, challenge=challenge("d"),
                                     join_code=REAL).hello()])
    other_engine = decode([DialerHandshake(JOINER, engine_id="kotp2p-9+x", challenge=challenge("e"),
                                           join_code=REAL).hello()])
    for stream in (frames[1:], other_engine):
        with pytest.raises(HandshakeFailed):
            for p in stream:
                host(seen).receive(p)
    assert drawn == []
    h = host(seen)
    assert h.receive(frames[0]) == [] and drawn == []  # a HELLO alone: waits for the message
    assert h.receive(frames[1]) and drawn  # now the exchange runs
    drawn.clear()
    replay = host(seen)
    with pytest.raises(HandshakeFailed, match="replayed"):
        replay.receive(frames[0])
    assert drawn == []


WITHOUT_A_CODE = {b"": "85c8364771d76bdcfc9d0dc4dab7e3bebaf3d8f846429b75e0086e9e186f0d95",
                  b"game id": "db08f9a0cbfe81b6d88a7da6d165f63eea829d2a7f7a1e9d6426c942c02b7b6a"}
"""The digest of every byte of a handshake without a code, in the lobby and between seats, as
the release before the join code sent them."""


@pytest.mark.parametrize("context", sorted(WITHOUT_A_CODE))
def test_without_a_code_the_handshake_sends_the_same_bytes_as_before(context: bytes) -> None:
    d = DialerHandshake(JOINER, engine_id=ENGINE, challenge=challenge("d"), context=context)
    a = AcceptorHandshake([HOST], engine_id=ENGINE, challenge=challenge("a"), context=context)
    wire = out = [d.hello()]
    while not (a.done and d.done):
        back = [f for p in decode(out) for f in a.receive(p)]
        out = [f for p in decode(back) for f in d.receive(p)]
        wire = [*wire, *back, *out]
    assert hashlib.sha256(b"".join(wire)).hexdigest() == WITHOUT_A_CODE[context]


def test_an_older_joiner_that_proves_a_code_its_own_way_is_told_it_runs_another_release() -> None:
    """An older kotp2p sends a plain HELLO and puts an HMAC of the code in its PROOF."""
    host = AcceptorHandshake([HOST], engine_id=ENGINE, challenge=challenge("a"), join_code=REAL)
    older = DialerHandshake(JOINER, engine_id=ENGINE, challenge=challenge("d"))
    answer = [f for p in decode([older.hello()]) for f in host.receive(p)]
    (proof,) = decode([f for p in decode(answer) for f in older.receive(p)])
    with_code = value(proof)
    with_code[2] = b"\x01" * 32
    with pytest.raises(HandshakeFailed) as exc:
        host.receive(codec.pack(with_code))
    assert exc.value.why.value == "other-version"


SPOKEN: list[tuple[str, str]] = [
    ("7-tiger-ocean", "7-tiger-ocean"),
    ("  7 Tiger  OCEAN ", "7-tiger-ocean"),
    ("7_tiger - ocean", "7-tiger-ocean"),
    ("\t7-TIGER-ocean\n", "7-tiger-ocean"),
    ("Straße", "strasse"),
]


@pytest.mark.parametrize(("typed", "used"), SPOKEN)
def test_a_typed_code_is_normalized_and_still_lets_the_joiner_in(typed: str, used: str) -> None:
    from kotp2p.net.lobby import normalize_code

    assert normalize_code(typed) == used
    handshake(typed, host_code=used)  # no failure: the joiner is in


def test_generated_codes_are_a_number_and_two_words_to_say_aloud() -> None:
    from kotp2p.net.lobby import new_code, normalize_code
    from kotp2p.net.trust import CHECK_WORDS

    assert new_code(lambda n: n - 1) == "99-tulip-tulip" and new_code(lambda n: 0) == "2-acorn-acorn"
    codes = {new_code() for _ in range(50)}
    assert len(codes) > 45
    for code in codes:
        number, first, second = code.split("-")
        assert 2 <= int(number) <= 99 and first in CHECK_WORDS and second in CHECK_WORDS
        assert normalize_code(code) == code
