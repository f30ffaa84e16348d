"""A networked game's files keep what its lobby settled, so a resume plays by the same terms."""

from __future__ import annotations

from pathlib import Path

import pytest

from kotp2p.app.localgame import resume_session
from kotp2p.net.files import NET, SeatFile, SeatSecret, StoredGame, StoreError
from kotp2p.net.session.deadlines import DEFAULT_HARD
from kotp2p.net.wire import codec
from tests.session.kit import table


def _stored(tmp_path: Path, seed: int, timeout: int | None) -> StoredGame:
    t = table(2, seed)
    stored = StoredGame.for_game(t.genesis.game_id, tmp_path)
    seats = SeatFile(NET, 0, 1, (SeatSecret(1, t.identities[1].to_bytes(), t.secrets[1], "random"),),
                     timeout)
    for f in stored.create(t.genesis, seats):
        f.close()
    return stored


@pytest.mark.parametrize(("timeout", "hard"), [(45, 45.0), (600, 600.0), (None, DEFAULT_HARD)])
def test_a_resumed_networked_game_keeps_the_lobbys_timeout(
        tmp_path: Path, timeout: int | None, hard: float) -> None:
    session, _, files = resume_session(_stored(tmp_path, 3, timeout), None)
    for f in files:
        f.close()
    assert session.timeouts.hard == hard


@pytest.mark.parametrize("bad", [0, -5, True, "45", None])
def test_a_seats_file_with_a_bad_timeout_is_refused(bad: object) -> None:
    value = codec.unpack(SeatFile(NET, 0, 1, (), 45).to_bytes())
    assert isinstance(value, list)
    with pytest.raises(StoreError, match="optional timeout in seconds > 0"):
        SeatFile.from_bytes(codec.pack([*value[:5], bad]))
