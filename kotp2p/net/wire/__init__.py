"""Bytes and signatures: codec, envelopes, schema, identities, checks, safe text and errors.

This package holds the one msgpack codec and the signed envelopes. It also holds the payload
schema, identities and their keys, and signature checks. Terminal-safe text, refusal codes and the
protocol errors live here too. Nothing here knows the game or the disk. ``codec`` is public as a
namespace: every msgpack call goes through it.
"""

from __future__ import annotations

from kotp2p.net.wire import codec
from kotp2p.net.wire.codec import MAX_FRAME, FrameDecoder, Value
from kotp2p.net.wire.envelope import (
    DOMAIN,
    Envelope,
    ForeignEnvelope,
    Kind,
    SignedMalformed,
    decode_body,
    envelope_id,
    open_envelope,
    open_split,
    peek_author,
    seal,
    signer_of,
    split_frame,
)
from kotp2p.net.wire.errors import (
    CodecError,
    FrameTooLarge,
    LocalProtocolError,
    NetError,
    RemoteProtocolError,
)
from kotp2p.net.wire.identity import (
    DEFAULT_NAME,
    MAX_NAME,
    Identity,
    check_name,
    fingerprint,
    verify_signature,
)
from kotp2p.net.wire.refusal import (
    HANDSHAKE_CODES,
    LOBBY_BYE_CODES,
    LOBBY_ERROR_CODES,
    Refusal,
    Why,
    peer_code,
)
from kotp2p.net.wire.safetext import is_text, safe_lines, safe_text, short_repr
from kotp2p.net.wire.schema import (
    DECK_ITEM,
    MAX_CHAT,
    PEEK_ITEM,
    SLOT_ITEM,
    payload_problem,
)
from kotp2p.net.wire.sigcheck import check_signatures

__all__ = [
    "DECK_ITEM",
    "DEFAULT_NAME",
    "DOMAIN",
    "HANDSHAKE_CODES",
    "LOBBY_BYE_CODES",
    "LOBBY_ERROR_CODES",
    "MAX_CHAT",
    "MAX_FRAME",
    "MAX_NAME",
    "PEEK_ITEM",
    "SLOT_ITEM",
    "CodecError",
    "Envelope",
    "ForeignEnvelope",
    "FrameDecoder",
    "FrameTooLarge",
    "Identity",
    "Kind",
    "LocalProtocolError",
    "NetError",
    "Refusal",
    "RemoteProtocolError",
    "SignedMalformed",
    "Value",
    "Why",
    "check_name",
    "check_signatures",
    "codec",
    "decode_body",
    "envelope_id",
    "fingerprint",
    "is_text",
    "open_envelope",
    "open_split",
    "payload_problem",
    "peek_author",
    "peer_code",
    "safe_lines",
    "safe_text",
    "seal",
    "short_repr",
    "signer_of",
    "split_frame",
    "verify_signature",
]
