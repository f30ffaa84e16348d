"""kotp2p.net: the trust core (signed envelopes, the hash-chained log, fair randomness, verify).

Everything here is sans-IO: the peer protocol is fed bytes and returns events and bytes to send;
sockets and clocks belong to the caller.
"""

from kotp2p.net.chain import (
    CHAIN_LENGTH,
    ChainChecker,
    SecretChain,
    SlotDeck,
    check_opening,
    draw,
    peek_seed,
    random_seed,
    slot_commitment,
)
from kotp2p.net.codec import MAX_FRAME, FrameDecoder, frame, pack, unpack
from kotp2p.net.engine import Chance, GameEngine, Turn
from kotp2p.net.envelope import Envelope, Kind, open_envelope, seal
from kotp2p.net.errors import (
    CodecError,
    FrameTooLarge,
    LocalProtocolError,
    NetError,
    RemoteProtocolError,
)
from kotp2p.net.gamelog import LogContents, LogWriter, NotAKotlog, game_log_path, read_log
from kotp2p.net.genesis import Genesis, SeatInfo, make_genesis, parse_genesis_frame, sign_genesis
from kotp2p.net.history import Violation
from kotp2p.net.identity import Identity, fingerprint, load_identity, verify_signature
from kotp2p.net.paths import config_dir, data_dir, games_dir
from kotp2p.net.protocol import (
    Applied,
    Event,
    Finished,
    Flush,
    Logged,
    Misbehaviour,
    PeerProtocol,
    Rejected,
    Rolled,
    Send,
)
from kotp2p.net.replica import Replica
from kotp2p.net.safetext import safe_text
from kotp2p.net.schema import payload_problem
from kotp2p.net.verify import Verdict, verify_logs
from kotp2p.net.words import check_words

__all__ = [
    "CHAIN_LENGTH",
    "MAX_FRAME",
    "Applied",
    "ChainChecker",
    "Chance",
    "CodecError",
    "Envelope",
    "Event",
    "Finished",
    "Flush",
    "FrameDecoder",
    "FrameTooLarge",
    "GameEngine",
    "Genesis",
    "Identity",
    "Kind",
    "LocalProtocolError",
    "LogContents",
    "LogWriter",
    "Logged",
    "Misbehaviour",
    "NetError",
    "NotAKotlog",
    "PeerProtocol",
    "Rejected",
    "RemoteProtocolError",
    "Replica",
    "Rolled",
    "SeatInfo",
    "SecretChain",
    "Send",
    "SlotDeck",
    "Turn",
    "Verdict",
    "Violation",
    "check_opening",
    "check_words",
    "config_dir",
    "data_dir",
    "draw",
    "fingerprint",
    "frame",
    "game_log_path",
    "games_dir",
    "load_identity",
    "make_genesis",
    "open_envelope",
    "pack",
    "parse_genesis_frame",
    "payload_problem",
    "peek_seed",
    "random_seed",
    "read_log",
    "safe_text",
    "seal",
    "sign_genesis",
    "slot_commitment",
    "unpack",
    "verify_logs",
    "verify_signature",
]
