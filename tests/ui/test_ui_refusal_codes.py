"""A refusal's code comes from the other side as a claim: whatever code a hostile host (or
joiner) sends, in a handshake refusal, a lobby ``error`` or a lobby ``bye``, the screen says it
as that side's answer and never states a fact of its own about a player the sender did not
name (a player not ready, a seat free, a player turned away, a bad move). An unknown or
malformed code is read as "other", safely."""

from __future__ import annotations

import pytest

from kotp2p.net.lobby.handshake import REFUSE, DialerHandshake, HandshakeFailed
from kotp2p.net.lobby.lobby import Failed, Notice, message
from kotp2p.net.transport.lobby_run import turned_away
from kotp2p.net.wire import (
    HANDSHAKE_CODES,
    LOBBY_BYE_CODES,
    LOBBY_ERROR_CODES,
    Refusal,
    Why,
    codec,
)
from kotp2p.ui import plain_refusal
from tests.net.test_net_lobby import ENGINE, guest, ident

WORDS = "seat 2 (Carol) is not ready"
CODES: list[object] = [*(w.value for w in Why), "", "x" * 100, "other\x1b[2J", 7, None,
                       b"wrong-join-code", ["game-full"], True]
OWN_FINDINGS = ["is not ready yet", "is still free", "Seat ", "could not join", "Could not reach",
                "You are not ready", "No game was heard", "You did not sign",
                "The game refused that move", "That was not yours", "Nobody is overdue",
                "A bot plays this seat", "You left the lobby", "sent something this kotp2p"]
QUOTED = [f"The host says: {WORDS}.", f"The host closed the lobby ({WORDS}).",
          f"The other side refused: {WORDS}."]


def from_handshake(code: object) -> Refusal:
    joiner = DialerHandshake(ident("Bob"), engine_id=ENGINE, challenge=b"d" * 32)
    joiner.hello()
    with pytest.raises(HandshakeFailed) as exc:
        joiner.receive(codec.pack([REFUSE, WORDS, code]))  # type: ignore[list-item]
    assert exc.value.by_peer
    return exc.value.refusal


def from_lobby(tag: str, code: object) -> Refusal:
    (event,) = guest("Bob").receive(codec.FrameDecoder().feed(
        message(tag, WORDS, code))[0])  # type: ignore[arg-type]
    assert isinstance(event, (Notice, Failed)) and event.refusal is not None
    return event.refusal


CHANNELS = {"handshake": (from_handshake, HANDSHAKE_CODES),
            "lobby error": (lambda code: from_lobby("error", code), LOBBY_ERROR_CODES),
            "lobby bye": (lambda code: from_lobby("bye", code), LOBBY_BYE_CODES)}


@pytest.mark.parametrize("channel", sorted(CHANNELS))
@pytest.mark.parametrize("code", CODES, ids=repr)
def test_a_hosts_code_never_makes_the_joiners_screen_blame_someone(channel: str,
                                                                    code: object) -> None:
    read, allowed = CHANNELS[channel]
    refusal = read(code)
    assert refusal.by_peer and refusal.details == (WORDS,)
    assert refusal.why in allowed | {Why.OTHER}  # nothing else can come from a peer
    if isinstance(code, str) and code in allowed:
        assert refusal.why == code
    said = plain_refusal(refusal)
    for finding in OWN_FINDINGS:
        assert finding not in said, f"{channel} {code!r}: {said!r}"
    if "Carol" in said:  # only inside the host's own words, said as theirs
        assert any(q in said for q in QUOTED), f"{channel} {code!r}: {said!r}"


def test_without_a_code_a_peers_refusal_is_other_and_is_said_as_theirs() -> None:
    joiner = DialerHandshake(ident("Bob"), engine_id=ENGINE, challenge=b"d" * 32)
    joiner.hello()
    with pytest.raises(HandshakeFailed) as exc:
        joiner.receive(codec.pack([REFUSE, WORDS]))  # a two-field refusal
    assert exc.value.refusal.why is Why.OTHER
    assert plain_refusal(exc.value.refusal).startswith(QUOTED[2])
    for broken in ([REFUSE], [REFUSE, 5, "wrong-join-code"], [REFUSE, WORDS, "x", "y"]):
        joiner = DialerHandshake(ident("Bob"), engine_id=ENGINE, challenge=b"d" * 32)
        joiner.hello()
        with pytest.raises(HandshakeFailed) as exc:
            joiner.receive(codec.pack(broken))  # type: ignore[arg-type]
        assert exc.value.refusal.why is Why.OTHER and "no reason given" in exc.value.reason


def test_a_joiners_code_cannot_make_the_host_blame_them_for_the_hosts_own_check() -> None:
    host_side = HandshakeFailed("refused by the peer: wrong join code", by_peer=True,
                                why=Why.WRONG_JOIN_CODE, said="wrong join code")
    said = plain_refusal(turned_away("127.0.0.9", host_side))
    assert said == ("A player at 127.0.0.9 could not join: their side refused (wrong join "
                    "code).")
    ours = HandshakeFailed("wrong join code", by_peer=False, why=Why.WRONG_JOIN_CODE)
    assert plain_refusal(turned_away("127.0.0.9", ours)) == (
        "A player at 127.0.0.9 could not join: they gave a wrong join code. Tell them the code "
        "on your screen.")
