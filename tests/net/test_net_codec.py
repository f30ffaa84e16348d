"""The codec and the frame decoder: safe options, caps checked before buffering, typed errors."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kotp2p.net.wire import CodecError, FrameDecoder, FrameTooLarge, codec


def test_values_round_trip_and_bytes_stay_bytes() -> None:
    value = [1, -2, "monster", b"\x00\xff", None, True, [[], {"k": b"v"}]]
    assert codec.unpack(codec.pack(value)) == value


def test_one_value_has_one_encoding() -> None:
    assert codec.pack([1, b"x", "y"]) == codec.pack((1, b"x", "y"))


@pytest.mark.parametrize("bad", [1.5, [1, 2.0], {"a": object()}, {1: "int key"}])
def test_floats_objects_and_int_keys_cannot_be_encoded(bad: object) -> None:
    with pytest.raises(TypeError):
        codec.pack(bad)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\xcb" + b"\x00" * 8, "float"),
        (b"\x81\x01\x02", "map key"),
        (b"\xd4\x01\x00", "extension"),
        (b"\x01\x02", "well-formed"),
        (b"\xc1", "well-formed"),
        (b"\xa2\xff\xfe", "well-formed"),
        (b"\x91" * 40 + b"\xc0", "nested"),
    ],
)
def test_bad_values_are_codec_errors_naming_the_problem(data: bytes, why: str) -> None:
    with pytest.raises(CodecError, match=why):
        codec.unpack(data)


def test_size_cap_is_checked() -> None:
    with pytest.raises(CodecError, match="at most"):
        codec.unpack(codec.pack(b"x" * 100), max_size=50)


def test_decoder_reassembles_frames_fed_one_byte_at_a_time() -> None:
    frames = [b"", b"a", b"hello" * 100]
    stream = b"".join(codec.frame(f) for f in frames)
    dec = FrameDecoder()
    got: list[bytes] = []
    for i in range(len(stream)):
        got += dec.feed(stream[i : i + 1])
    assert got == frames
    assert dec.at_boundary


@given(st.lists(st.binary(max_size=40), max_size=8), st.lists(st.integers(0, 400), max_size=8))
def test_frames_come_out_whole_and_in_order_wherever_the_chunks_end(
        frames: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(codec.frame(f) for f in frames)
    dec = FrameDecoder()
    got: list[bytes] = []
    start = 0
    for cut in [*sorted({min(c, len(stream)) for c in cuts}), len(stream)]:
        got += dec.feed(stream[start:cut])
        start = max(start, cut)
    assert got == frames and dec.at_boundary


def test_huge_length_is_refused_before_buffering_and_stays_refused() -> None:
    dec = FrameDecoder(max_frame=1000)
    with pytest.raises(FrameTooLarge, match="at most 1000"):
        dec.feed(b"\xff\xff\xff\xff" + b"x" * 10)
    assert dec.buffered == 0
    with pytest.raises(FrameTooLarge):
        dec.feed(b"\x00")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.integers(min_value=1, max_value=64))
def test_random_bytes_give_frames_or_the_typed_error_with_bounded_memory(
    data: bytes, chunk: int
) -> None:
    dec = FrameDecoder(max_frame=512)
    try:
        for i in range(0, len(data), chunk):
            for f in dec.feed(data[i : i + chunk]):
                assert len(f) <= 512
                with contextlib.suppress(CodecError):
                    codec.unpack(f)
            assert dec.buffered <= 512 + 4
    except FrameTooLarge:
        pass


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_escape_unpack_as_anything_but_codec_error(data: bytes) -> None:
    with contextlib.suppress(CodecError):
        codec.unpack(data)
