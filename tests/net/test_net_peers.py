"""The peers file of a networked game: where to find the other seats after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from kotp2p.net.files import PeersFile
from kotp2p.net.wire import RemoteProtocolError, codec


def test_the_peers_file_round_trips_beside_the_log() -> None:
    peers = PeersFile(40123, {0: ("192.168.1.20", 7447), 2: ("192.168.1.31", 39000)})
    assert PeersFile.from_bytes(peers.to_bytes()) == peers
    assert PeersFile.path_for(Path("games/0a8f2f72bbb6009b.kotlog")) == Path(
        "games/0a8f2f72bbb6009b.peers")


@pytest.mark.parametrize("value", [
    [1, 0, []], [2, 7447, []], [1, 7447, [[9, "h", 1]]], [1, 7447, [[0, "h", 70000]]],
    [1, 7447, "x"], "peers",
])
def test_a_damaged_peers_file_is_refused_with_what_was_expected(value: object) -> None:
    with pytest.raises(RemoteProtocolError, match="expected a peers file"):
        PeersFile.from_bytes(codec.pack(value))
