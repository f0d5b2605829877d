"""The server's framing (``wire.Reader``) under random input: garbage, partial and lying headers
interleaved with valid requests, the stream cut into reads at random points. Every valid request
that follows a garbage chunk is read back whole; in-process here (many examples), and through
the real server's stdio in ``test_stream_fuzz_every_valid_request_is_answered``."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsp_stdio import StdioServer, frame

from vllm_lint.server import wire

# pieces a broken client, a proxy or a corrupted pipe could put between frames: header fragments
# (with and without their line ends), lengths that lie, JSON cut short, binary
FRAGMENTS = [
    b"Content-Length: ", b"Content-Length: 12", b"Content-Length: 12\r\n", b"Content-Length: 3\r\n\r\n",
    b"Content-Length: 0\r\n\r\n", b"content-length:", b"Content-Length: abc\r\n\r\n", b"Content-Length: 400\r\n\r\n",
    b"Content-Length: 99999999999\r\n\r\n", b"Content-Type: application/vscode-jsonrpc\r\n", b"X: y", b"X: y\r\n",
    b"\r\n", b"\r\n\r\n", b"\r", b"\n", b"{", b"}", b'{"jsonrpc": "2.0", "id": ', b'"method"', b"\xff\xfe", b"\x00",
    b"Content-Le", b"ngth: 7\r\n\r\n",
]

garbage = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.binary(min_size=1, max_size=24)),
                   min_size=1, max_size=6).map(b"".join)
# text that tempts a naive reader: header words, line breaks, non-ASCII (escaped or raw in JSON)
texts = st.one_of(st.text(max_size=40), st.sampled_from(["Content-Length: 5\r\n\r\n{}", "a\r\n\r\nb", "é😀"]))


@st.composite
def streams(draw, requests: int = 4):
    """(the bytes, the valid requests in it): each request preceded by a garbage chunk (or none)."""
    out, sent = b"", []
    for i in range(draw(st.integers(1, requests))):
        if draw(st.booleans()) or i == 0:
            out += draw(garbage)
        msg = {"jsonrpc": "2.0", "id": f"req-{i}", "method": "vllm-lint/unknown",
               "params": {"text": draw(texts)}}
        body = json.dumps(msg, ensure_ascii=draw(st.booleans())).encode("utf-8")
        out += b"Content-Length: %d\r\n\r\n" % len(body) + body
        sent.append(msg)
    return out, sent


def _read_all(reader: wire.Reader, data: bytes, cuts: list[int]) -> list:
    got = []
    points = sorted({c % (len(data) + 1) for c in cuts}) + [len(data)]
    last = 0
    for p in points:
        reader.feed(data[last:p])
        last = p
        while (item := reader.next()) is not None:
            got.append(item)
    return got


_SETTINGS = dict(derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(max_examples=200, **_SETTINGS)
@given(streams(), st.lists(st.integers(0, 1 << 16), max_size=8))
def test_every_valid_frame_after_garbage_is_read(stream, cuts):
    data, sent = stream
    got = [msg for msg, error in _read_all(wire.Reader(), data, cuts) if error is None]
    ours = [m for m in got if isinstance(m, dict) and str(m.get("id", "")).startswith("req-")]
    assert ours == sent


@settings(max_examples=200, **_SETTINGS)
@given(st.lists(st.builds(lambda t: {"jsonrpc": "2.0", "method": "m", "params": {"t": t}}, texts), min_size=1,
                max_size=5), st.lists(st.integers(0, 1 << 12), max_size=6))
def test_a_clean_stream_is_read_exactly(messages, cuts):
    data = b"".join(frame(m) for m in messages)
    assert _read_all(wire.Reader(), data, cuts) == [(m, None) for m in messages]


def test_a_header_over_the_limit_is_an_error_and_its_body_is_passed_over():
    r = wire.Reader()
    r.feed(b"Content-Length: %d\r\n\r\n" % (wire.MAX_BODY + 1) + b"x" * 1000)
    msg, error = r.next()
    assert msg is None and error.code == wire.INVALID_REQUEST
    r.feed(frame({"jsonrpc": "2.0", "id": 1, "method": "m"}))
    assert r.next() == ({"jsonrpc": "2.0", "id": 1, "method": "m"}, None)


@pytest.mark.parametrize("body, rid", [
    (b'{"jsonrpc": "2.0", "id": 4, "method": "m", "params": {', 4),
    (b'{"id": "a\\"b", "jsonrpc": "2.0"', 'a"b'),
    (b'{"jsonrpc": "2.0", "method": "m", "params": {"id": 5', None),  # not the request's id
    (b'{"jsonrpc": "2.0", "id": 6, "x": "\xff"}', 6),
    (b"[" * 100000, None),
    (b"", None),
])
def test_a_parse_error_carries_the_id_where_it_can_be_read(body, rid):
    value, error = wire.parse_body(body)
    assert value is None and error.code == wire.PARSE_ERROR and error.id == rid


def test_a_large_body_arriving_in_pieces_is_scanned_once(monkeypatch):
    """The check for a header inside a body that has not all come yet looks at each new piece,
    not at the whole body again at every read: a 10 MiB document in 1 MiB reads costs a scan of
    10 MiB (and a header line's length per piece), not 55."""
    body = json.dumps({"jsonrpc": "2.0", "method": "m", "params": {"t": "x\n" * (5 << 20)}}, indent=1).encode()
    data = b"Content-Length: %d\r\n\r\n" % len(body) + body
    scanned = []
    search = wire.header_line_in

    def spy(buf, lo, hi, floor):
        scanned.append(hi - lo)
        return search(buf, lo, hi, floor)

    monkeypatch.setattr(wire, "header_line_in", spy)
    r = wire.Reader()
    for i in range(0, len(data), 1 << 20):
        r.feed(data[i:i + (1 << 20)])
        item = r.next()
    assert item[0]["params"]["t"] == "x\n" * (5 << 20)
    # (each piece's scan starts one header line back, for a line the read cut)
    assert len(scanned) == len(data) >> 20 and sum(scanned) <= len(data) + wire._LENGTH_LINE_MAX * len(scanned)


# ------------------------------------------------------------------ the same, through the server


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory):
    where = tmp_path_factory.mktemp("fuzz")
    s = StdioServer(str(where), str(where / "server.stderr"))
    s.initialize()
    yield s
    assert s.close() == 0


@settings(max_examples=25, **_SETTINGS)
@given(streams(requests=3), st.lists(st.integers(0, 1 << 12), max_size=4))
def test_stream_fuzz_every_valid_request_is_answered(fuzzed_server, stream, cuts):
    data, sent = stream
    points = sorted({c % (len(data) + 1) for c in cuts}) + [len(data)]
    last = 0
    for p in points:
        fuzzed_server.send(data[last:p])
        last = p
    for msg in sent:
        assert fuzzed_server.answer(msg["id"])["error"]["code"] == -32601  # method not found


def test_a_header_line_cut_by_a_read_inside_a_lying_body_is_found():
    """A lying length waits for its body; the next frame's header is found in what came of it
    even when a read ends inside that header's line (between its digits and its line end)."""
    nxt = frame({"jsonrpc": "2.0", "id": "next", "method": "m"})
    data = b"Content-Length: 400\r\n\r\n\r\n" + nxt
    cut_at = data.index(b"\r\n\r\n{")  # after the digits of the next frame's length, before its line end
    for cut in (cut_at, cut_at + 1):
        r = wire.Reader()
        got = []
        for part in (data[:cut], data[cut:]):
            r.feed(part)
            while (item := r.next()) is not None:
                got.append(item)
        assert [m for m, e in got if e is None] == [{"jsonrpc": "2.0", "id": "next", "method": "m"}]
