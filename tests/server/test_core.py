"""The language server's transport-free parts: positions in each encoding, client settings,
the file's own configuration against the client's, fixes and suppressions as text edits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vllm_lint.server import core

LAUNCH = b"vllm serve m \\\n  --swap-space 8 \\\n  --cuda-graph-sizes 8\n"


def test_positions_count_code_units_of_the_negotiated_encoding():
    data = "x = '\U0001F600' --swap-space\n\u00e9b\r\nc\rd".encode()
    off = data.index(b"--swap")
    assert core.Positions(data, "utf-32").position(off) == (0, 8)
    assert core.Positions(data, "utf-16").position(off) == (0, 9)  # the emoji is a surrogate pair
    assert core.Positions(data, "utf-8").position(off) == (0, 11)
    p = core.Positions(data, "utf-16")
    assert p.position(data.index(b"b")) == (1, 1)
    assert p.position(data.index(b"\nc") + 1) == (2, 0)  # \r\n ends a line
    assert p.position(data.index(b"\rd") + 1) == (3, 0)  # so does a lone \r
    for enc in ("utf-8", "utf-16", "utf-32"):
        q = core.Positions(data, enc)
        for o in (0, off, data.index(b"b"), data.index(b"\rd") + 1, len(data)):
            assert q.offset(*q.position(o)) == o


def test_offset_clamps_past_the_end_of_a_line():
    p = core.Positions(b"ab\ncd\n", "utf-16")
    assert p.offset(0, 99) == 2
    assert p.offset(9, 0) == 6


def test_client_settings_are_read_leniently():
    c = core.ClientSettings.from_json({"vllm-lint": {"targetVersion": "0.27", "select": "VL1, VL2",
                                                     "unsafeFixes": True, "configurationPreference": "nope",
                                                     "documentationBaseUrl": "https://x.test/site/"}})
    assert (c.target_version, c.select, c.unsafe_fixes, c.preference, c.docs_base_url) == (
        "0.27", ["VL1", "VL2"], True, "filesystemFirst", "https://x.test/site")
    bad = core.ClientSettings.from_json({"targetVersion": 3, "select": [1], "unsafeFixes": "yes"})
    assert (bad.target_version, bad.select, bad.unsafe_fixes) == (None, None, False)
    assert core.ClientSettings.from_json(None).preference == "filesystemFirst"


@pytest.mark.parametrize("preference, expected", [("filesystemFirst", "0.8.5"), ("editorFirst", "0.27.1"),
                                                  ("editorOnly", "0.27.1")])
def test_configuration_preference(tmp_path, preference, expected):
    (tmp_path / ".vllm-lint.toml").write_text('target-version = "0.8.5"\n')
    s = core.Session()
    s.client = core.ClientSettings(target_version="0.27.1", preference=preference)
    assert s.settings_for(str(tmp_path / "a.sh")).target_version == expected


def test_editor_settings_apply_where_the_file_sets_nothing(tmp_path):
    (tmp_path / ".vllm-lint.toml").write_text('ignore = ["VL107"]\n')
    s = core.Session()
    s.client = core.ClientSettings(target_version="0.27.1")
    got = s.settings_for(str(tmp_path / "a.sh"))
    assert (got.target_version, got.ignore) == ("0.27.1", ["VL107"])


def test_document_lint_matches_the_cli(tmp_path):
    from vllm_lint.cli.lint_command import execute  # noqa: F401 - the CLI path is importable beside the server

    s = core.Session()
    a = s.analyse(str(tmp_path / "serve.sh"), LAUNCH.decode(), "shellscript")
    assert [(d.code, d.row, d.column) for d in a.diagnostics] == [("VL101", 2, 3), ("VL102", 3, 3)]
    assert a.targets and a.targets[0][2] == s.db.newest
    assert "[vllm " in core.shown_message(a.diagnostics[0])


def test_language_id_decides_the_format_of_an_unnamed_buffer():
    s = core.Session()
    assert s.analyse("", LAUNCH.decode(), "shellscript").fmt == "shell"
    assert s.analyse("", "just prose\n", "plaintext").fmt is None


def test_fixes_and_suppressions_as_bytes(tmp_path):
    s = core.Session()
    a = s.analyse(str(tmp_path / "serve.sh"), LAUNCH.decode())
    vl102 = next(d for d in a.diagnostics if d.code == "VL102")
    assert b"--cudagraph-capture-sizes 8" in core.fixed_bytes(a, vl102)
    everything = core.fix_all(a)
    assert b"--swap-space" not in everything and b"--cudagraph-capture-sizes" in everything
    sup = core.suppressed_bytes(a, vl102.row)
    assert sup is not None and b"vllm-lint: ignore[VL102]" in sup
    again = s.analyse(str(tmp_path / "serve.sh"), sup.decode())
    assert [d.code for d in again.diagnostics] == ["VL101"]


def test_minimal_edit_cuts_at_character_boundaries():
    old, new = "a\u00e9b".encode(), "a\u00e8b".encode()
    start, end, text = core.minimal_edit(old, new)
    assert old[:start] + text + old[end:] == new
    assert old[start:end].decode() == "\u00e9"


def test_hover_without_a_linter_names_the_newest_release_as_the_engine_does(tmp_path):
    # a configuration error leaves the analysis without a linter: the hover falls back to the
    # release the engine would pick with nothing named, and says so in the engine's words
    from vllm_lint.pipeline.targeting import NEWEST_SOURCE

    s = core.Session()
    a = core.Analysis(str(tmp_path / "serve.sh"), LAUNCH, "shell", [], [], error="bad configuration")
    _start, _end, text = core.hover_markdown(s, a, LAUNCH.index(b"--swap") + 4)
    assert f"- checked against vLLM {s.db.newest} ({NEWEST_SOURCE})" in text.splitlines()


def test_hover_and_completion(tmp_path):
    s = core.Session()
    a = s.analyse(str(tmp_path / "serve.sh"), LAUNCH.decode())
    start, end, text = core.hover_markdown(s, a, LAUNCH.index(b"--swap") + 4)
    assert LAUNCH[start:end] == b"--swap-space"
    assert "removed in" in text and "checked against vLLM" in text
    assert core.hover_markdown(s, a, LAUNCH.index(b"serve") + 1) is None
    doc = LAUNCH + b"vllm serve m --max-model\n"
    a = s.analyse(str(tmp_path / "serve.sh"), doc.decode())
    start, items = core.completions(s, a, len(doc) - 1)
    assert doc[start:len(doc) - 1] == b"--max-model"
    assert "--max-model-len" in [i["label"] for i in items]
    assert core.completions(s, a, doc.index(b"serve") + 3)[1] == []


@pytest.mark.parametrize("option", ["--swap-space", "--cuda-graph-sizes", "--enforce-eager", "VLLM_USE_V1"])
def test_hover_says_what_flags_show_says(tmp_path, option):
    """One wording (``surface.wording.history_lines``): every line of ``vllm-lint flags show``
    about the option's life is in the hover, the no-op note of a removal included."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    s = core.Session()
    doc = f"{option}=1 vllm serve m --swap-space 8 --cuda-graph-sizes 8 --enforce-eager\n" if option.startswith(
        "VLLM") else "vllm serve m --swap-space 8 --cuda-graph-sizes 8 --enforce-eager\n"
    a = s.analyse(str(tmp_path / "serve.sh"), doc)
    _start, _end, text = core.hover_markdown(s, a, doc.index(option) + 2)
    shown = CliRunner().invoke(main, ["flags", "show", option]).output.splitlines()[1:]
    history = [line.strip() for line in shown if not line.strip()[:1].isdigit()]  # (changes: the CLI's alone)
    plain = text.replace("`", "")
    assert history and all(" ".join(line.split()) in " ".join(plain.split()) for line in history)
    if option == "--swap-space":
        assert "- removed in: 0.18.0 (it had no effect when it was removed)" in text.splitlines()


def test_hover_and_completion_use_words_not_the_database_s_fields(tmp_path):
    s = core.Session()
    doc = "vllm serve m --max-num-seqs 8 --enforce-eager --dtype auto --max-num\n"
    a = s.analyse(str(tmp_path / "serve.sh"), doc)
    hovers = {w: core.hover_markdown(s, a, doc.index(w) + 3)[2] for w in ("--max-num-seqs", "--enforce-eager", "--dtype")}
    assert "takes an integer" in hovers["--max-num-seqs"]
    assert "a switch (`--no-enforce-eager` turns it off); off by default" in hovers["--enforce-eager"]
    assert "takes one of `auto`," in hovers["--dtype"] and "default `auto`" in hovers["--dtype"]
    _start, items = core.completions(s, a, len(doc) - 1)
    details = {i["label"]: i["detail"] for i in items}
    assert details["--max-num-seqs"].startswith("takes an integer; ")
    for text in [*hovers.values(), *details.values()]:
        assert not any(jargon in text for jargon in ("valued", "negatable", "null", "json.", "human_int"))


def test_python_keyword_completion_inside_an_engine_call(tmp_path):
    s = core.Session()
    doc = b"from vllm import LLM\nllm = LLM(model='m', max_mo\n"
    a = s.analyse(str(tmp_path / "app.py"), doc.decode())
    start, items = core.completions(s, a, len(doc) - 1)
    assert "max_model_len" in [i["label"] for i in items]
    doc2 = b"from vllm import LLM\nprint(max_mo\n"
    a2 = s.analyse(str(tmp_path / "app.py"), doc2.decode())
    assert core.completions(s, a2, len(doc2) - 1)[1] == []


def test_a_result_for_a_superseded_version_is_dropped(tmp_path):
    """The editor sends version 2 while version 1 is being linted: the lint reads the waiting
    input before it publishes, drops its result and lints version 2."""
    import asyncio
    import json
    import os

    from lsprotocol import types
    from pygls.workspace import Workspace

    from vllm_lint.server import transport, wire
    from vllm_lint.server.protocol import build_server

    server = build_server(debounce=0)
    ws = Workspace(None)
    server.protocol._workspace = ws
    server.protocol.client_capabilities = types.ClientCapabilities()
    sent: list[bytes] = []

    class Writer:
        def write(self, data: bytes) -> None:
            sent.append(data)

    server.protocol.set_writer(Writer())
    r, w = os.pipe()
    os.set_blocking(r, False)
    server.dispatch = transport.FastDispatch(server, r)
    uri = (tmp_path / "serve me.sh").as_uri()  # pygls keys its documents by the unquoted URI
    ws.put_text_document(types.TextDocumentItem(uri=uri, language_id="shellscript", version=1,
                                                text=LAUNCH.decode()))
    real = server.session.analyse
    typed = []

    def typing_meanwhile(path, text, language=None):
        out = real(path, text, language)
        if not typed:
            typed.append(os.write(w, wire.frame({
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": uri, "version": 2},
                           "contentChanges": [{"text": "vllm serve m\n"}]}})))
        return out

    server.session.analyse = typing_meanwhile

    async def edit() -> None:
        server.schedule(uri, 0)
        for _ in range(5):
            await asyncio.sleep(0)

    try:
        asyncio.run(edit())
    finally:
        os.close(r)
        os.close(w)
    published = [json.loads(m.split(b"\r\n\r\n", 1)[1])["params"] for m in sent]
    assert [(p["uri"], p["version"], p["diagnostics"]) for p in published] == [(uri, 2, [])]
    assert server.analyses[uri][0] == 2


def test_the_remembered_model_lookup_follows_an_edited_config_json(tmp_path):
    import json

    cfg = tmp_path / "m" / "config.json"
    cfg.parent.mkdir()
    cfg.write_text(json.dumps({"num_attention_heads": 28, "num_key_value_heads": 4}))
    s = core.Session()
    text = "vllm serve ./m -tp 8\n"
    first = s.analyse(str(tmp_path / "serve.sh"), text)
    assert [d.code for d in first.diagnostics] == ["VL401"] and str(cfg) in dict(first.reads)
    cfg.write_text(json.dumps({"num_attention_heads": 32, "num_key_value_heads": 8}))
    assert s.analyse(str(tmp_path / "serve.sh"), text).diagnostics == []  # by content key
    cfg.write_text(json.dumps({"num_attention_heads": 12, "num_key_value_heads": 4}))
    assert [d.code for d in s.analyse(str(tmp_path / "serve.sh"), text).diagnostics] == ["VL401"]


def _apply(old: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    out, last = b"", 0
    for start, end, text in edits:
        assert last <= start <= end
        out += old[last:start] + text
        last = end
    return out + old[last:]


def test_minimal_edits_leave_out_what_lies_between_changes():
    old = b"vllm serve m --cuda-graph-sizes 8 --api-key=sk-prod-3f9a8b7c6d5e --swap-space 4\nnext\n"
    new = b"vllm serve m --cudagraph-capture-sizes 8 --api-key=sk-prod-3f9a8b7c6d5e\nnext\n"
    edits = core.minimal_edits(old, new)
    assert _apply(old, edits) == new and len(edits) == 2
    assert not any(b"sk-prod" in text for _, _, text in edits)
    assert core.minimal_edits(old, old) == []


@given(st.lists(st.sampled_from(["a", "b", " ", "\n", "\u00e9", "\U0001F600", "--x"]), max_size=30).map("".join),
       st.lists(st.sampled_from(["a", "b", " ", "\n", "\u00e9", "\U0001F600", "--y"]), max_size=30).map("".join))
@settings(max_examples=300, derandomize=True, database=None, deadline=None)
def test_minimal_edits_rebuild_the_new_text_at_character_boundaries(a, b):
    old, new = a.encode(), b.encode()
    edits = core.minimal_edits(old, new)
    assert _apply(old, edits) == new
    for start, end, text in edits:
        text.decode("utf-8")
        old[:start].decode("utf-8")
        old[end:].decode("utf-8")
