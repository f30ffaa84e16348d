"""Where the other seats of a networked game listen, kept beside its log for a resume.

``ID.peers`` holds msgpack ``[1, my port, [[seat, host, port], ...]]``. The first port is the
one this process's game listener had. A resumed process listens there again, so the seats that
dial it find it. Then comes the last address of every remote seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kotp2p.net.wire import RemoteProtocolError, codec

PEERS_VERSION = 1
PEERS_SUFFIX = ".peers"


def _is_port(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 < v < 65536


@dataclass(frozen=True)
class PeersFile:
    """This process's game port and the remote seats' addresses."""

    port: int
    addresses: Mapping[int, tuple[str, int]] = field(default_factory=dict)

    @staticmethod
    def path_for(log_path: Path) -> Path:
        """The peers file beside a ``.kotlog``."""
        return log_path.with_suffix(PEERS_SUFFIX)

    def to_bytes(self) -> bytes:
        """The stored form."""
        return codec.pack([PEERS_VERSION, self.port,
                           [[s, h, p] for s, (h, p) in sorted(self.addresses.items())]])

    @classmethod
    def from_bytes(cls, data: bytes) -> PeersFile:
        """Parse the stored form.

        :raises RemoteProtocolError: not a peers file.
        """
        v = codec.unpack(data, max_size=65536)
        what = f"expected a peers file [{PEERS_VERSION}, port, [[seat, host, port], ...]]"
        if not isinstance(v, list) or len(v) != 3 or v[0] != PEERS_VERSION or not _is_port(v[1]):
            raise RemoteProtocolError(what)
        if not isinstance(v[2], list):
            raise RemoteProtocolError(what)
        addresses: dict[int, tuple[str, int]] = {}
        for item in v[2]:
            if (not isinstance(item, list) or len(item) != 3 or not isinstance(item[0], int)
                    or not 0 <= item[0] < 6 or not isinstance(item[1], str)
                    or not _is_port(item[2])):
                raise RemoteProtocolError(what)
            addresses[item[0]] = (item[1], item[2])
        return cls(v[1], addresses)
