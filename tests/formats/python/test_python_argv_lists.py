"""Argv lists that start vLLM wherever they stand (issue 27): their launches, at the list's own
bytes; ``command``/``args`` pairs; argv names bound in ``if``/``else`` branches; printf-style and
``str.format`` fields as opaque words."""

from __future__ import annotations

from vllm_lint.frontends import python as P
from span_invariants import check_spans


def _ex(src: str):
    data = src.encode()
    ex = P.extract(data, "app.py")
    check_spans(data, ex)
    return data, ex


def _at(data: bytes, span) -> bytes:
    return data[span.start:span.end]


def test_a_free_standing_list_is_a_launch_at_its_own_bytes():
    data, ex = _ex('class S:\n    def __command__(self):\n        return ["vllm", "serve", "m", "--port", "1"]\n')
    (la,) = ex.launches
    assert (la.entry, la.style) == ("vllm serve", "argv")
    assert _at(data, la.span) == b'["vllm", "serve", "m", "--port", "1"]'
    assert [(t.text, _at(data, t.span)) for t in la.tokens] == [
        ("m", b'"m"'), ("--port", b'"--port"'), ("1", b'"1"')]
    assert la.delete_tokens(la.tokens[1:]) is not None


def test_a_command_and_args_pair_is_one_launch_with_the_container_image():
    src = ('import os\nIMG = os.environ.get("IMG", "vllm/vllm-openai:v0.10.0")\n'
           'POD = {"image": IMG,\n       "command": ["vllm", "serve", "m"],\n       "args": ["--port", "1"],\n'
           '       "env": [{"name": "VLLM_X", "value": "1"}]}\n')
    data, ex = _ex(src)
    (la,) = ex.launches
    assert [t.text for t in la.tokens] == ["m", "--port", "1"]
    assert _at(data, la.span) == b'["vllm", "serve", "m"],\n       "args": ["--port", "1"]'
    assert [(e.name, _at(data, e.name_span), e.value) for e in la.env] == [("VLLM_X", b"VLLM_X", "1")]
    assert la.image == "vllm/vllm-openai:v0.10.0"
    (hint,) = la.version_hints
    assert _at(data, hint.span) == b"vllm/vllm-openai:v0.10.0"


def test_keyword_pairs_follow_names_to_their_lists():
    src = ('cmd_x = ["python3", "-m", "vllm.entrypoints.api_server"]\nargs_x = ["--model=m"]\n'
           'upload(serving_container_command=cmd_x, serving_container_args=args_x)\n'
           'V1Container(command=["vllm", "serve"], args=["m", "--port", "2"])\n')
    data, ex = _ex(src)
    assert [(la.entry, [t.text for t in la.tokens], data[:la.span.start].count(b"\n") + 1)
            for la in ex.launches] == [("api_server", ["--model=m"], 1), ("vllm serve", ["m", "--port", "2"], 4)]


def test_a_launch_after_an_opaque_word_in_a_launcher_list():
    data, ex = _ex('def go(runner, image, extra):\n'
                   '    return [runner, "exec", image, "vllm", "serve", "m", "--port", "3"] + extra\n')
    (la,) = ex.launches
    assert [t.text for t in la.tokens][:3] == ["m", "--port", "3"]
    assert la.opaque  # ``extra``: more options may follow
    assert _at(data, la.span).startswith(b"[runner") and _at(data, la.span).endswith(b"+ extra")


def test_branch_bindings_before_one_call_are_each_a_launch_and_lists_of_a_call_are_not_read_twice():
    src = ('import subprocess\nif a:\n    cmd = ["vllm", "serve", "x"]\nelse:\n    cmd = ["vllm", "serve", "y"]\n'
           'subprocess.run(cmd)\nsubprocess.run(["vllm", "serve", "z"])\n'
           'cmd2 = []\ncmd2 = ["vllm", "serve", "w"]\nsubprocess.run(cmd2)\n')
    data, ex = _ex(src)
    got = sorted((data[:la.span.start].count(b"\n") + 1, la.tokens[0].text) for la in ex.launches)
    # the dead ``cmd2 = []`` is no branch; the inline list is the call's launch, reported once
    assert got == [(3, "x"), (5, "y"), (7, "z"), (10, "w")]


def test_formatting_fields_are_opaque_words_at_their_bytes():
    src = ('import os\nos.system("vllm serve %s --port %d --x 100%%" % (m, p))\n'
           'os.system("vllm serve {} --port {{1}}".format(m))\n')
    data, ex = _ex(src)
    first, second = ex.launches
    assert [(t.text, t.opaque, _at(data, t.span)) for t in first.tokens] == [
        ("${PYTHON_EXPR_0}", True, b"%s"), ("--port", False, b"--port"), ("${PYTHON_EXPR_1}", True, b"%d"),
        ("--x", False, b"--x"), ("100%", False, b"100%")]  # `%%`: no byte of its own
    assert [(t.text, t.opaque) for t in second.tokens] == [("${PYTHON_EXPR_0}", True), ("--port", False),
                                                           ("{1}", False)]


def test_a_quoted_field_is_opaque_too():
    _d, ex = _ex("import os\nos.system(\"vllm serve m --served-model-name='%s'\" % n)\n")
    (la,) = ex.launches
    assert la.tokens[1].opaque


def test_lists_that_are_no_launch():
    src = ('import os\nif argv[:2] == ["vllm", "serve"]:\n    pass\n'
           'os.system(" ".join(["vllm", "serve", "m", "--served-model-name", "a b"]))\n'
           'x = ["echo", "vllm", "serve", "m"]\ny = [["pip", "install", "vllm"], ("vllm", "bench", "m")]\n')
    _d, ex = _ex(src)
    assert ex.launches == []


def test_nested_lists_are_read_one_by_one():
    _d, ex = _ex('JOBS = [["vllm", "serve", "a"], ["vllm", "serve", "b", "--port", "1"]]\n')
    assert [[t.text for t in la.tokens] for la in ex.launches] == [["a"], ["b", "--port", "1"]]


def test_a_list_inside_a_call_inside_a_list_is_read_and_a_process_calls_list_is_left_to_it():
    _d, ex = _ex('import subprocess\nJOBS = [make(["vllm", "serve", "a"]), subprocess.run(["vllm", "bench", "b"])]\n')
    assert [[t.text for t in la.tokens] for la in ex.launches] == [["a"]]


def test_a_long_concatenation_is_read_a_bounded_number_of_times(monkeypatch):
    from vllm_lint.frontends.python import argv_lists, processes

    reads = []
    real = processes.launches_of_words  # (argv_lists imports it where it reads a list)
    monkeypatch.setattr(processes, "launches_of_words", lambda *a, **k: reads.append(1) or real(*a, **k))
    _d, ex = _ex("X = " + " + ".join('["vllm"]' for _ in range(600)) + "\n")
    assert ex.launches == []
    # per level down to the depth bound, the nested sum and its last list: not every level from every level
    assert len(reads) <= 2 * (argv_lists._MAX_DEPTH + 2)


def test_a_template_bound_to_a_name_then_formatted_is_read_with_its_fields_opaque():
    src = ('import subprocess\n'
           'TMPL = "vllm serve {model} --port {port} --x 4 --y \'{{\\"a\\": 1}}\'"\n'
           'subprocess.Popen(TMPL.format(model="m", port=8000), shell=True)\n')
    data, ex = _ex(src)
    (la,) = ex.launches
    assert [(t.text, t.opaque) for t in la.tokens][3:] == [("--x", False), ("4", False), ("--y", False),
                                                          ('{"a": 1}', False)]  # ({{ }}: str.format's escapes)
    assert la.tokens[0].opaque and la.tokens[1].text == "--port" and la.tokens[2].opaque
    assert _at(data, la.tokens[3].span) == b"--x"  # in the template, where it is written
    assert _at(data, la.tokens[2].span) == b"{port}"
    assert la.read_as == "the template `TMPL` formatted here, its fields unknown"


def test_a_template_changed_after_it_was_bound_is_not_read():
    src = ('import os\nT = "vllm serve {} --x 4"\nT += " --y 1"\nos.system(T.format("m"))\n')
    _d, ex = _ex(src)
    assert ex.launches == []


def test_a_string_concatenation_reads_its_literal_pieces_and_leaves_the_rest_opaque():
    src = ('import os\nmodel = input()\n'
           'os.system("nohup python3 -m vllm.entrypoints.api_server --model " + model + " --x 4 " + f"--port {8000}" + " &")\n')
    data, ex = _ex(src)
    (la,) = ex.launches
    assert [(t.text if not t.opaque else None) for t in la.tokens] == ["--model", None, "--x", "4", "--port", None]
    assert _at(data, la.tokens[1].span) == b"model"
    assert _at(data, la.tokens[2].span) == b"--x"
    assert la.delete_tokens(la.tokens[2:4]) is not None
    assert "concatenation" in la.read_as


def test_a_file_python_3_does_not_parse_has_the_commands_of_its_strings_read():
    src = ('import os\nprint "go"\nos.system("vllm serve %s --x 4" % m)\n'
           'os.system("vllm serve " + m)\nx = "no launch here"\n')
    data = src.encode()
    ex = P.extract(data, "old.py")
    check_spans(data, ex)
    la, joined = ex.launches
    assert joined.tokens == [] and joined.opaque  # "vllm serve " + m: the rest is unknown
    assert [(t.text, t.opaque) for t in la.tokens][1:] == [("--x", False), ("4", False)] and la.tokens[0].opaque
    assert _at(data, la.tokens[1].span) == b"--x"
    assert "does not parse" in la.read_as
    assert [n.message for n in ex.notes][0].startswith("Python syntax error")


def test_a_file_that_does_not_parse_and_holds_no_command_is_still_an_error():
    import pytest

    from vllm_lint.launch import ParseError

    with pytest.raises(ParseError):
        P.extract(b'print "vllm is great"\n', "old.py")


def test_a_python_2_file_with_tabs_and_spaces_mixed_has_its_strings_read_past_the_indentation():
    # Python 2 sized a tab to the next multiple of 8 columns; Python 3's tokenizer stops at the
    # first dedent it cannot match, so the strings after it were lost and the file "not parsed"
    src = ('import os\ndef go(m, p, extra):\n    if extra:\n'
           '\tos.system("python3 -m vllm.entrypoints.api_server --model=\'%s\' --port %s %s" % (m, p, extra))\n'
           '      else:\n        os.system("vllm serve \'%s\' --x 4" % m)\n')
    data = src.encode()
    ex = P.extract(data, "old.py")
    check_spans(data, ex)
    first, second = ex.launches
    assert first.tokens[0].opaque and _at(data, first.tokens[0].span) == b"--model='%s'"
    assert _at(data, first.tokens[1].span) == b"--port"
    assert [t.text for t in second.tokens][1:] == ["--x", "4"]
    assert _at(data, second.tokens[1].span) == b"--x"
    assert data[:second.tokens[1].span.start].count(b"\n") == 5
