"""TCP framing: length prefixes, the XML preamble, chunking, the size cap."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.protocol import LocalProtocolError, RemoteProtocolError
from cockatrice_ext.protocol.framing import TCP_HELLO, TcpFrameDecoder, encode_tcp_frame
from cockatrice_ext.protocol.pb.commands_pb2 import CommandContainer
from cockatrice_ext.protocol.serverside import TCP_PREAMBLE


def drain(decoder: TcpFrameDecoder) -> list[bytes]:
    frames = []
    while (frame := decoder.next_frame()) is not None:
        frames.append(frame)
    return frames


def test_hello_is_an_empty_container_framed_as_four_zero_bytes() -> None:
    assert TCP_HELLO == b"\x00\x00\x00\x00"
    assert CommandContainer().SerializeToString() == b""
    assert encode_tcp_frame(CommandContainer().SerializeToString()) == TCP_HELLO


def test_real_preamble_is_sixty_bytes_and_skipped() -> None:
    assert len(TCP_PREAMBLE) == 60
    decoder = TcpFrameDecoder()
    decoder.feed(TCP_PREAMBLE + encode_tcp_frame(b"abc") + encode_tcp_frame(b""))
    assert drain(decoder) == [b"abc", b""]


def test_stream_without_preamble_is_framed_from_the_first_byte() -> None:
    decoder = TcpFrameDecoder()
    decoder.feed(encode_tcp_frame(b"\x08\x01"))
    assert drain(decoder) == [b"\x08\x01"]


def test_preamble_split_into_single_bytes() -> None:
    decoder = TcpFrameDecoder()
    stream = TCP_PREAMBLE + encode_tcp_frame(b"payload")
    frames: list[bytes] = []
    for byte in stream:
        decoder.feed(bytes([byte]))
        frames.extend(drain(decoder))
    assert frames == [b"payload"]


def test_length_prefix_is_big_endian() -> None:
    assert encode_tcp_frame(b"x" * 258)[:4] == b"\x00\x00\x01\x02"


def test_absurd_length_is_refused_before_buffering() -> None:
    decoder = TcpFrameDecoder(max_frame_size=1000)
    decoder.feed(b"\x7f\xff\xff\xff")  # 2 GiB announced, nothing else sent
    with pytest.raises(RemoteProtocolError, match="cap"):
        decoder.next_frame()


def test_frame_exactly_at_cap_is_accepted() -> None:
    decoder = TcpFrameDecoder(max_frame_size=10)
    decoder.feed(encode_tcp_frame(b"0123456789"))
    assert drain(decoder) == [b"0123456789"]


def test_outgoing_frame_over_cap_is_a_local_error() -> None:
    with pytest.raises(LocalProtocolError):
        encode_tcp_frame(b"x" * 11, max_frame_size=10)


def test_http_garbage_is_an_absurd_length() -> None:
    decoder = TcpFrameDecoder()
    decoder.feed(b"HTTP/1.1 400 Bad Request\r\n\r\n")
    with pytest.raises(RemoteProtocolError):
        decoder.next_frame()


def test_malformed_preamble_is_refused_after_a_bounded_read() -> None:
    decoder = TcpFrameDecoder()
    decoder.feed(b"<?xml " + b"a" * 1000)
    with pytest.raises(RemoteProtocolError, match="preamble"):
        decoder.next_frame()


def test_eof_in_the_middle_of_a_frame() -> None:
    decoder = TcpFrameDecoder()
    decoder.feed(encode_tcp_frame(b"abcdef")[:-2])
    assert decoder.next_frame() is None
    decoder.feed_eof()
    with pytest.raises(RemoteProtocolError, match="middle of a frame"):
        decoder.next_frame()


def test_clean_eof() -> None:
    decoder = TcpFrameDecoder()
    decoder.feed(encode_tcp_frame(b"a"))
    decoder.feed_eof()
    assert drain(decoder) == [b"a"]


@settings(max_examples=100, deadline=None)
@given(
    payloads=st.lists(st.binary(max_size=300), max_size=20),
    preamble=st.booleans(),
    cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=30),
)
def test_any_chunking_yields_the_same_frames(payloads: list[bytes], preamble: bool, cuts: list[int]) -> None:
    stream = (TCP_PREAMBLE if preamble else b"") + b"".join(encode_tcp_frame(p) for p in payloads)
    points = sorted({0, len(stream), *(c % (len(stream) + 1) for c in cuts)})
    decoder = TcpFrameDecoder()
    frames: list[bytes] = []
    for start, end in itertools.pairwise(points):
        decoder.feed(stream[start:end])
        frames.extend(drain(decoder))
    decoder.feed_eof()
    frames.extend(drain(decoder))
    assert frames == payloads
    assert decoder.buffered == 0
