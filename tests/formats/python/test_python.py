"""The Python front-end: LLM/EngineArgs kwargs, subprocess command lines, os.environ."""

from __future__ import annotations

import ast
import random

import pytest

from vllm_lint.frontends import python as py
from vllm_lint.launch import Edit, Extraction, Launch, ParseError, Span

# ---------------------------------------------------------------------------------------------
# helpers

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::SyntaxWarning")


def ext(src: str | bytes) -> tuple[bytes, Extraction]:
    data = src.encode("utf-8") if isinstance(src, str) else src
    ex = py.extract(data, "t.py")
    check_invariants(data, ex)
    return data, ex


def text(data: bytes, span: Span | None) -> bytes | None:
    return None if span is None else data[span.start:span.end]


def cut(data: bytes, span: Span) -> bytes:
    return data[:span.start] + data[span.end:]


def apply(data: bytes, edits: list[Edit]) -> bytes:
    out = data
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        out = out[:e.span.start] + e.content.encode() + out[e.span.end:]
    return out


def parses(data: bytes) -> bool:
    try:
        ast.parse(data)
    except SyntaxError:
        return False
    return True


def check_invariants(data: bytes, ex: Extraction) -> None:
    """Every span is in range, spells what it claims, and every delete leaves valid Python."""
    enc = "utf-8"
    for la in ex.launches:
        assert 0 <= la.span.start <= la.span.end <= len(data)
        for k in la.keyed:
            if k.key_span is not None:
                assert text(data, k.key_span).decode(enc) == k.key
            if k.value_span is not None and not k.value_opaque:
                written = ast.literal_eval(text(data, k.value_span).decode(enc).strip())
                # an environment default (k.assumed) is spelled before its int()/float() conversion
                assert (type(k.value)(written) if k.assumed else written) == k.value
            if k.value_text_span is not None:
                t = text(data, k.value_text_span).decode(enc)
                if isinstance(k.value, str):
                    assert t == k.value
                else:
                    assert ast.literal_eval(t) == k.value
            if k.delete_span is not None:
                assert parses(cut(data, k.delete_span)), cut(data, k.delete_span)
        for t in la.tokens:
            if t.text_span is not None:
                assert text(data, t.text_span).decode(enc) == t.text
            if t.span is not None:
                assert 0 <= t.span.start <= t.span.end <= len(data)
        for e in la.env:
            check_env(data, e)
    for e in ex.env:
        check_env(data, e)


def check_env(data: bytes, e) -> None:
    if e.name_span is not None:
        assert text(data, e.name_span).decode() == e.name
    if e.value_text_span is not None:
        assert text(data, e.value_text_span).decode() == e.value
    if e.delete_span is not None:
        assert parses(cut(data, e.delete_span))


def keyed(la: Launch) -> dict:
    return {k.key: k.value for k in la.keyed}


def only(ex: Extraction) -> Launch:
    assert len(ex.launches) == 1, ex.launches
    return ex.launches[0]


# ---------------------------------------------------------------------------------------------
# pre-filter and module interface


def test_interface():
    assert py.FORMAT == "python"
    assert py.might_contain_launch(b"from vllm import LLM")
    assert py.might_contain_launch(b'os.environ["VLLM_USE_V1"] = "0"')
    assert not py.might_contain_launch(b"import torch\nprint('hi')\n")


# ---------------------------------------------------------------------------------------------
# LLM / EngineArgs keyword arguments


OFFLINE = '''\
from vllm import LLM, SamplingParams

prompts = ["Hello, my name is", "The capital of France is"]
sampling_params = SamplingParams(temperature=0.8, top_p=0.95)

llm = LLM(
    model="meta-llama/Llama-3.1-8B-Instruct",
    tensor_parallel_size=2,
    gpu_memory_utilization=0.9,  # leave room for the sampler
    max_model_len=8192,
    enforce_eager=True,
    swap_space=-1,
    quantization=None,
    limit_mm_per_prompt={"image": 2, "video": 0},
    compilation_config=[1, 2],
    seed=SEED,
)
outputs = llm.generate(prompts, sampling_params)
'''


def test_offline_inference_script():
    data, ex = ext(OFFLINE)
    la = only(ex)
    assert la.entry == "LLM" and la.style == "kwargs" and not la.opaque
    assert keyed(la) == {
        "model": "meta-llama/Llama-3.1-8B-Instruct",
        "tensor_parallel_size": 2,
        "gpu_memory_utilization": 0.9,
        "max_model_len": 8192,
        "enforce_eager": True,
        "swap_space": -1,
        "quantization": None,
        "limit_mm_per_prompt": {"image": 2, "video": 0},
        "compilation_config": [1, 2],
        "seed": None,
    }
    assert la.model == "meta-llama/Llama-3.1-8B-Instruct"
    by = {k.key: k for k in la.keyed}
    assert by["seed"].value_opaque
    assert text(data, by["model"].value_text_span) == b"meta-llama/Llama-3.1-8B-Instruct"
    assert text(data, by["model"].value_span) == b'"meta-llama/Llama-3.1-8B-Instruct"'
    assert text(data, by["swap_space"].value_text_span) == b"-1"
    assert text(data, by["tensor_parallel_size"].key_span) == b"tensor_parallel_size"
    # one per line: the whole line goes, end-of-line comment included
    assert text(data, by["gpu_memory_utilization"].delete_span) == \
        b"    gpu_memory_utilization=0.9,  # leave room for the sampler\n"
    out = cut(data, by["seed"].delete_span)
    assert b"    enforce_eager=True,\n" in out and b"seed" not in out
    assert la.span.start == data.index(b"LLM(\n")
    assert text(data, la.span).endswith(b")")


@pytest.mark.parametrize(
    "src, key, expected",
    [
        ('LLM(model="m", tensor_parallel_size=2, seed=0)\n', "tensor_parallel_size", 'LLM(model="m", seed=0)\n'),
        ('LLM(model="m", tensor_parallel_size=2, seed=0)\n', "seed", 'LLM(model="m", tensor_parallel_size=2)\n'),
        ('LLM(model="m", tensor_parallel_size=2, seed=0,)\n', "seed", 'LLM(model="m", tensor_parallel_size=2)\n'),
        ('LLM(model="m")\n', "model", "LLM()\n"),
        ('LLM("m", seed=0)\n', "seed", 'LLM("m")\n'),
        ('LLM(seed=(0), model="m")\n', "seed", 'LLM(model="m")\n'),
        ('LLM(model="m", seed=(0))\n', "seed", 'LLM(model="m")\n'),
        ('LLM("m",\n    seed=0)\n', "seed", 'LLM("m")\n'),
        ('LLM("m", seed=0,\n    enforce_eager=True,\n)\n', "enforce_eager", 'LLM("m", seed=0,\n)\n'),
        ('LLM(\n    seed=0\n)\n', "seed", "LLM(\n)\n"),
        ('LLM(\n    "m",\n    seed=0\n)\n', "seed", 'LLM(\n    "m",\n)\n'),
        ('LLM(\n    "m",\n    # the seed\n    seed=0,\n    max_model_len=1,\n)\n', "seed",
         'LLM(\n    "m",\n    # the seed\n    max_model_len=1,\n)\n'),
        ('LLM(model="m", seed=0, **kw)\n', "seed", 'LLM(model="m", **kw)\n'),
        ('x = [LLM(model="m", seed=0) for _ in range(2)]\n', "seed", 'x = [LLM(model="m") for _ in range(2)]\n'),
        ('LLM(model="m", seed=0  # why\n)\n', "seed", 'LLM(model="m"  # why\n)\n'),
    ],
)
def test_delete_span_layouts(src, key, expected):
    data, ex = ext("from vllm import LLM\n" + src)
    la = only(ex)
    ka = next(k for k in la.keyed if k.key == key and k.key_span is not None)
    assert cut(data, ka.delete_span).decode() == "from vllm import LLM\n" + expected


@pytest.mark.parametrize(
    "src, entry",
    [
        ("from vllm import LLM as Engine\nEngine(model='m', seed=1)\n", "LLM"),
        ("import vllm\nvllm.LLM(model='m', seed=1)\n", "LLM"),
        ("import vllm as v\nv.LLM(model='m', seed=1)\n", "LLM"),
        ("from vllm.entrypoints.llm import LLM\nLLM(model='m', seed=1)\n", "LLM"),
        ("from vllm.engine.arg_utils import AsyncEngineArgs\nAsyncEngineArgs(model='m', seed=1)\n", "AsyncEngineArgs"),
        ("from vllm import EngineArgs, LLMEngine\nLLMEngine.from_engine_args(EngineArgs(model='m', seed=1))\n", "EngineArgs"),
        ("import vllm.engine.arg_utils\nvllm.engine.arg_utils.EngineArgs(model='m', seed=1)\n", "EngineArgs"),
        ("from vllm import *\nLLM(model='m', seed=1)\n", "LLM"),
        ("# a documentation snippet without imports (vllm)\nllm = LLM(model='m', seed=1)\n", "LLM"),
        ("def main():\n    from vllm import LLM as L\n    return L(model='m', seed=1)\n", "LLM"),
    ],
)
def test_import_forms(src, entry):
    _, ex = ext(src)
    la = only(ex)
    assert la.entry == entry
    assert keyed(la) == {"model": "m", "seed": 1}


@pytest.mark.parametrize(
    "src",
    [
        "from langchain_community.llms import LLM\nLLM(model='m')  # vllm\n",
        "class LLM:\n    pass\nLLM(model='m')  # vllm\n",
        "from vllm.engine.arg_utils import AsyncEngineArgs\nargs = AsyncEngineArgs.from_cli_args(ns)\n",
        "from vllm import LLM\nllm = LLM\nprint(llm)\n",
        "import vllm\nx = foo.vllm.LLM(model='m')\n",
    ],
)
def test_not_a_launch(src):
    _, ex = ext(src)
    assert ex.launches == []


def test_positional_model_and_extra_positionals():
    data, ex = ext("from vllm import EngineArgs\nEngineArgs('facebook/opt-125m', 'tok', seed=0)\n")
    la = only(ex)
    model = la.keyed[0]
    assert model.key == "model" and model.key_span is None and model.delete_span is None
    assert text(data, model.value_text_span) == b"facebook/opt-125m"
    assert la.model == "facebook/opt-125m"
    assert la.context["positional"] == ["'tok'"]
    assert keyed(la)["seed"] == 0


def test_splat_dict_same_scope():
    src = '''\
from vllm import LLM

def build(model):
    engine_kwargs = {
        "tensor_parallel_size": 4,
        "max_num_seqs": 256,
    }
    engine_kwargs["enable_prefix_caching"] = True
    return LLM(model=model, **engine_kwargs)
'''
    data, ex = ext(src)
    la = only(ex)
    assert keyed(la) == {"model": None, "tensor_parallel_size": 4, "max_num_seqs": 256,
                         "enable_prefix_caching": True}
    assert not la.opaque
    by = {k.key: k for k in la.keyed}
    assert text(data, by["max_num_seqs"].key_span) == b"max_num_seqs"
    assert text(data, by["max_num_seqs"].delete_span) == b'        "max_num_seqs": 256,\n'
    assert text(data, by["enable_prefix_caching"].delete_span) == \
        b'    engine_kwargs["enable_prefix_caching"] = True\n'
    assert by["model"].value_opaque


def test_splat_inline_dict_and_dict_call():
    data, ex = ext("from vllm import LLM\nLLM('m', **{'seed': 1, 'swap_space': 4}, **dict(max_model_len=1024))\n")
    la = only(ex)
    assert keyed(la) == {"model": "m", "seed": 1, "swap_space": 4, "max_model_len": 1024}
    assert not la.opaque
    by = {k.key: k for k in la.keyed}
    assert text(data, by["seed"].key_span) == b"seed"
    assert text(data, by["seed"].delete_span) == b"'seed': 1, "
    assert text(data, by["max_model_len"].key_span) == b"max_model_len"


@pytest.mark.parametrize(
    "src",
    [
        "from vllm import LLM\nLLM(model='m', **kwargs)\n",
        "from vllm import LLM\nLLM(model='m', **vars(args))\n",
        "from vllm import LLM\nLLM(model='m', **cfg)\ncfg = {'seed': 1}\n",  # bound after the call
        "from vllm import LLM\ncfg = {'seed': 1}\ncfg.update(other)\nLLM(model='m', **cfg)\n",
        "from vllm import LLM\nLLM(*args, seed=1)\n",
        "from vllm import LLM\ncfg = {'seed': 1, **base}\nLLM(model='m', **cfg)\n",
    ],
)
def test_opaque_splats(src):
    _, ex = ext(src)
    assert only(ex).opaque


def test_global_dict_used_in_function():
    src = "from vllm import LLM\nCFG = {'seed': 1}\n\ndef f():\n    return LLM('m', **CFG)\n"
    _, ex = ext(src)
    assert keyed(only(ex)) == {"model": "m", "seed": 1}


def test_fastapi_wrapper():
    src = '''\
import os
from contextlib import asynccontextmanager

from fastapi import FastAPI
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

MODEL = os.getenv("MODEL", "Qwen/Qwen2.5-7B-Instruct")
engine = None


@asynccontextmanager
async def lifespan(app: FastAPI):
    global engine
    args = AsyncEngineArgs(
        model=MODEL,
        max_model_len=int(os.getenv("MAX_LEN", "4096")),
        gpu_memory_utilization=0.85,
        disable_log_requests=True,
    )
    engine = AsyncLLMEngine.from_engine_args(args)
    yield


app = FastAPI(lifespan=lifespan)
'''
    data, ex = ext(src)
    la = only(ex)
    assert la.entry == "AsyncEngineArgs"
    by = {k.key: k for k in la.keyed}
    assert by["model"].value_opaque
    # an environment default is checked as its default (issue 27), and findings say so
    assert (by["max_model_len"].value, by["max_model_len"].assumed) == (
        4096, "`4096` is the default of `MAX_LEN`, used unless the environment sets it")
    assert by["gpu_memory_utilization"].value == 0.85
    assert by["disable_log_requests"].value is True
    assert text(data, by["disable_log_requests"].delete_span) == b"        disable_log_requests=True,\n"


def test_string_value_text_span_rules():
    src = '''from vllm import LLM
LLM(a="plain", b='x\\ty', c=r"raw", d="con" "cat", e=f"{x}", f=b"b", g="""tri""", h="", i=u"u")
'''
    data, ex = ext(src)
    by = {k.key: k for k in only(ex).keyed}
    assert text(data, by["a"].value_text_span) == b"plain"
    assert by["b"].value == "x\ty" and by["b"].value_text_span is None
    assert text(data, by["c"].value_text_span) == b"raw"
    assert by["d"].value == "concat" and by["d"].value_text_span is None
    assert by["e"].value_opaque
    assert by["f"].value == b"b" and by["f"].value_text_span is None
    assert text(data, by["g"].value_text_span) == b"tri"
    assert by["h"].value_text_span == Span(data.index(b'h=""') + 3, data.index(b'h=""') + 3)
    assert text(data, by["i"].value_text_span) == b"u"


# ---------------------------------------------------------------------------------------------
# byte offsets: non-ASCII, CRLF, BOM, declared encodings


def test_non_ascii_before_call():
    src = '# 模型配置 — ünïcödé\nPROMPT = "こんにちは"\nfrom vllm import LLM\nllm = LLM(model="Qwen/通义", max_model_len=2048)  # «x»\n'
    data, ex = ext(src)
    by = {k.key: k for k in only(ex).keyed}
    assert text(data, by["max_model_len"].key_span) == b"max_model_len"
    assert text(data, by["model"].value_text_span) == "Qwen/通义".encode()
    assert by["model"].value == "Qwen/通义"


def test_crlf_file():
    src = 'from vllm import LLM\r\nllm = LLM(\r\n    model="m",\r\n    seed=0,\r\n)\r\nx = 1\r\n'
    data, ex = ext(src.encode())
    by = {k.key: k for k in only(ex).keyed}
    assert text(data, by["seed"].key_span) == b"seed"
    assert text(data, by["seed"].delete_span) == b"    seed=0,\r\n"
    assert cut(data, by["seed"].delete_span) == b'from vllm import LLM\r\nllm = LLM(\r\n    model="m",\r\n)\r\nx = 1\r\n'


def test_lone_cr_line_endings():
    data, ex = ext(b'from vllm import LLM\rllm = LLM(model="m", seed=3)\r')
    by = {k.key: k for k in only(ex).keyed}
    assert text(data, by["seed"].key_span) == b"seed"


def test_bom_file():
    data, ex = ext(b'\xef\xbb\xbffrom vllm import LLM; llm = LLM(model="m", seed=3)\n')
    by = {k.key: k for k in only(ex).keyed}
    assert text(data, by["seed"].key_span) == b"seed"
    assert text(data, by["model"].value_text_span) == b"m"


def test_declared_latin1():
    src = '# -*- coding: latin-1 -*-\nfrom vllm import LLM\nx = "caf\xe9"; llm = LLM(model="m\xe9", seed=3)\n'
    data = src.encode("latin-1")
    ex = py.extract(data, "t.py")
    by = {k.key: k for k in only(ex).keyed}
    assert text(data, by["seed"].key_span) == b"seed"
    assert text(data, by["model"].value_text_span) == "m\xe9".encode("latin-1")


def test_undeclared_non_utf8_is_parse_error():
    with pytest.raises(ParseError) as exc:
        py.extract('from vllm import LLM\nx = "caf\xe9"\n'.encode("latin-1"), "t.py")
    assert exc.value.line is not None


def test_syntax_error_has_line():
    with pytest.raises(ParseError) as exc:
        py.extract(b"from vllm import LLM\n\nllm = LLM(model='m'\n", "t.py")
    assert exc.value.line in (3, 4)


@pytest.mark.parametrize(
    "data",
    [
        b"x = " + b"(" * 300 + b"1" + b")" * 300 + b"  # vllm\n",
        b"x = " + b"[" * 5000 + b"]" * 5000 + b"  # vllm\n",
        b"x = " + b"-" * 100000 + b"1  # vllm\n",
        b"x = 1" + b" + 1" * 50000 + b"  # vllm\n",
        b"from vllm import LLM\nLLM(model=" + b"[" * 900 + b"]" * 900 + b")\n",
        b"vllm = 1\x00\n",
        b"\xff\xfe vllm",
        b"# coding: nonsense\nvllm\n",
        b"",
    ],
)
def test_never_crashes(data):
    try:
        ex = py.extract(data, "t.py")
    except ParseError:
        return
    check_invariants(data, ex)


def test_random_garbage_never_crashes():
    rng = random.Random(1234)
    base = (OFFLINE + SUBPROCESS_SCRIPT).encode()
    for _ in range(300):
        data = bytearray(base)
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(data))
            op = rng.random()
            if op < 0.4:
                del data[i:i + rng.randint(1, 10)]
            elif op < 0.8:
                data[i:i] = rng.choice([b",", b"(", b")", b"\n", b"'", b'"', b"**", b"#", b"\\", b"\r\n", b"\xc3\xa9"])
            else:
                data[i] = rng.randrange(256)
        try:
            ex = py.extract(bytes(data), "t.py")
        except ParseError:
            continue
        check_invariants(bytes(data), ex)


# ---------------------------------------------------------------------------------------------
# subprocess command lines


SUBPROCESS_SCRIPT = '''\
import os
import subprocess
import sys

def launch(model: str, port: int) -> subprocess.Popen:
    cmd = [
        sys.executable, "-m", "vllm.entrypoints.openai.api_server",
        "--model", model,
        "--port", str(port),
        "--tensor-parallel-size", "2",
        "--swap-space", "4",
    ]
    cmd += ["--enforce-eager"]
    env = os.environ.copy()
    env["VLLM_ATTENTION_BACKEND"] = "FLASHINFER"
    return subprocess.Popen(cmd, env=env)
'''


def test_subprocess_named_list():
    data, ex = ext(SUBPROCESS_SCRIPT)
    la = only(ex)
    assert la.style == "argv" and la.entry == "openai.api_server"
    assert [t.text for t in la.tokens] == [
        "--model", "model", "--port", "str(port)", "--tensor-parallel-size", "2", "--swap-space", "4",
        "--enforce-eager"]
    assert [t.opaque for t in la.tokens][:4] == [False, True, False, True]
    assert not la.opaque
    tp = la.tokens[4]
    assert text(data, tp.span) == b'"--tensor-parallel-size"'
    assert text(data, tp.text_span) == b"--tensor-parallel-size"
    assert [(e.name, e.value) for e in la.env] == [("VLLM_ATTENTION_BACKEND", "FLASHINFER")]
    assert text(data, la.env[0].delete_span) == b'    env["VLLM_ATTENTION_BACKEND"] = "FLASHINFER"\n'
    # delete "--swap-space", "4": they share a line with nothing else
    edits = la.delete_tokens(la.tokens[6:8])
    out = apply(data, edits)
    assert parses(out)
    assert b'        "--swap-space", "4",\n' not in out and b'"--tensor-parallel-size", "2",\n    ]' in out
    # delete "--tensor-parallel-size", "2" only
    out = apply(data, la.delete_tokens(la.tokens[4:6]))
    assert parses(out) and b"tensor" not in out
    # tokens from `cmd += [...]` are in another list
    out = apply(data, la.delete_tokens([la.tokens[8]]))
    assert parses(out) and b"cmd += []" in out


@pytest.mark.parametrize(
    "src, drop, expected",
    [
        ('subprocess.run(["vllm", "serve", "m", "--tp", "2", "--seed", "0"])\n', (1, 3),
         'subprocess.run(["vllm", "serve", "m", "--seed", "0"])\n'),
        ('subprocess.run(["vllm", "serve", "m", "--tp", "2", "--seed", "0"])\n', (3, 5),
         'subprocess.run(["vllm", "serve", "m", "--tp", "2"])\n'),
        ('subprocess.run(["vllm", "serve", "m", "--tp", "2",])\n', (1, 3),
         'subprocess.run(["vllm", "serve", "m"])\n'),
        ('subprocess.run([\n    "vllm", "serve", "m",\n    "--tp", "2",\n    "--seed", "0",\n])\n', (1, 3),
         'subprocess.run([\n    "vllm", "serve", "m",\n    "--seed", "0",\n])\n'),
        ('subprocess.run([\n    "vllm",\n    "serve",\n    "--tp",\n    "2",\n])\n', (0, 2),
         'subprocess.run([\n    "vllm",\n    "serve",\n])\n'),
    ],
)
def test_delete_tokens_layouts(src, drop, expected):
    head = "import subprocess\n"
    data, ex = ext(head + src)
    la = only(ex)
    out = apply(data, la.delete_tokens(la.tokens[drop[0]:drop[1]]))
    assert out.decode() == head + expected


@pytest.mark.parametrize(
    "src, entry, words",
    [
        ('import subprocess\nsubprocess.run(["vllm", "serve", "m", "--tp", "2"], check=True)\n', "vllm serve", ["m", "--tp", "2"]),
        ('import subprocess as sp\nsp.check_call(("vllm", "serve", "m"))\n', "vllm serve", ["m"]),
        ('from subprocess import Popen\nPopen(args=["vllm", "serve", "m"])\n', "vllm serve", ["m"]),
        ('import os\nos.execvp("vllm", ["vllm", "serve", "m", "--seed", "1"])\n', "vllm serve", ["m", "--seed", "1"]),
        ('import os\nos.execlp("vllm", "vllm", "serve", "m")\n', "vllm serve", ["m"]),
        ('import asyncio\nasync def f():\n    await asyncio.create_subprocess_exec("vllm", "serve", "m", "--port", "8000")\n',
         "vllm serve", ["m", "--port", "8000"]),
        ('import subprocess\nBASE = ["vllm", "serve"]\nsubprocess.run(BASE + ["m", "--tp", "2"] + extra)\n',
         "vllm serve", ["m", "--tp", "2", "extra"]),
        ('import subprocess\nsubprocess.run(["env", "VLLM_USE_V1=0", "vllm", "serve", "m"])\n', "vllm serve", ["m"]),
        ('import subprocess\nsubprocess.run(["docker", "run", "--gpus", "all", "vllm/vllm-openai:v0.8.5", "--model", "m"])\n',
         "docker:vllm/vllm-openai:v0.8.5", ["--model", "m"]),
        ('import subprocess\nsubprocess.run(["vllm", "serve", f"{m}", f"--tp={tp}"])\n', "vllm serve", ["${PY0}", "--tp=${PY0}"]),
    ],
)
def test_subprocess_forms(src, entry, words):
    _, ex = ext(src)
    la = only(ex)
    assert la.entry == entry
    assert [t.text for t in la.tokens] == words


def test_subprocess_env_literal_and_command_env():
    src = ('import os, subprocess\n'
           'subprocess.run(["env", "VLLM_USE_V1=0", "vllm", "serve", "m"],\n'
           '               env={**os.environ, "VLLM_LOGGING_LEVEL": "DEBUG", "CUDA_VISIBLE_DEVICES": "0,1"})\n')
    data, ex = ext(src)
    la = only(ex)
    names = [(e.name, e.value) for e in la.env]
    assert names == [("VLLM_LOGGING_LEVEL", "DEBUG"), ("CUDA_VISIBLE_DEVICES", "0,1"), ("VLLM_USE_V1", "0")]
    assert text(data, la.env[2].name_span) == b"VLLM_USE_V1"
    assert text(data, la.env[2].value_span) == b"0"
    assert parses(cut(data, la.env[0].delete_span))


def test_subprocess_env_dict_call():
    data, ex = ext('import os, subprocess\nsubprocess.Popen(["vllm", "serve", "m"], env=dict(os.environ, VLLM_X="1"))\n')
    e = only(ex).env[0]
    assert (e.name, e.value) == ("VLLM_X", "1")
    assert text(data, e.name_span) == b"VLLM_X"


def test_subprocess_not_vllm():
    _, ex = ext('import subprocess\nsubprocess.run(["nvidia-smi"])\nsubprocess.run(["vllm", "bench", "x"])\n')
    assert ex.launches == []


def test_varargs_splat_and_list_splat():
    _, ex = ext('import subprocess\nsubprocess.run(["vllm", "serve", *args, "--seed", "1"])\n')
    la = only(ex)
    assert la.opaque
    assert [t.splat for t in la.tokens] == [True, False, False]


def test_conditional_list_mutation_is_opaque():
    src = ('import subprocess\ncmd = ["vllm", "serve", "m"]\nif fast:\n    cmd.append("--enforce-eager")\n'
           'subprocess.run(cmd)\n')
    _, ex = ext(src)
    la = only(ex)
    assert la.opaque and la.tokens[-1].splat


def test_shell_strings_are_handed_to_shell_frontend():
    pytest.importorskip("vllm_lint.frontends.shell")
    src = ('import os, subprocess\n'
           'os.system("VLLM_USE_V1=0 vllm serve m --tensor-parallel-size 2 --seed 1")\n'
           'subprocess.run("vllm serve m "\n'
           '               "--max-model-len 4096", shell=True)\n'
           'subprocess.run(f"vllm serve {model} --port {port}", shell=True)\n'
           'subprocess.run("vllm serve m\\t--swap-space 4", shell=True)\n')
    data, ex = ext(src)
    assert len(ex.launches) == 4
    a, b, c, d = ex.launches
    assert [t.text for t in a.tokens] == ["m", "--tensor-parallel-size", "2", "--seed", "1"]
    assert text(data, a.tokens[1].span) == b"--tensor-parallel-size"
    assert any(e.name == "VLLM_USE_V1" for e in a.env + ex.env)
    assert [t.text for t in b.tokens] == ["m", "--max-model-len", "4096"]
    assert text(data, b.tokens[1].span) == b"--max-model-len"
    assert text(data, b.tokens[0].span) == b"m"
    assert c.tokens[0].opaque and c.tokens[2].opaque
    assert text(data, c.tokens[1].span) == b"--port"
    assert text(data, d.tokens[1].span) == b"--swap-space"


# ---------------------------------------------------------------------------------------------
# os.environ


def test_environ_forms():
    src = '''\
import os
from os import environ

os.environ["VLLM_USE_V1"] = "0"
os.environ.setdefault("VLLM_WORKER_MULTIPROC_METHOD", "spawn")
os.environ.update({"VLLM_A": "1", "VLLM_B": "2"})
os.environ.update(VLLM_C="3")
os.putenv("VLLM_D", "4")
environ["VLLM_E"] = str(5)
os.environ |= {"VLLM_F": "6"}
if debug:
    os.environ["VLLM_LOGGING_LEVEL"] = "DEBUG"
os.environ["HF_HOME"] = "/cache"; x = 1
'''
    data, ex = ext(src)
    got = [(e.name, e.value, e.value_opaque) for e in ex.env]
    assert got == [
        ("VLLM_USE_V1", "0", False),
        ("VLLM_WORKER_MULTIPROC_METHOD", "spawn", False),
        ("VLLM_A", "1", False), ("VLLM_B", "2", False),
        ("VLLM_C", "3", False),
        ("VLLM_D", "4", False),
        ("VLLM_E", None, True),
        ("VLLM_F", "6", False),
        ("VLLM_LOGGING_LEVEL", "DEBUG", False),
        ("HF_HOME", "/cache", False),
    ]
    by = {e.name: e for e in ex.env}
    assert text(data, by["VLLM_USE_V1"].delete_span) == b'os.environ["VLLM_USE_V1"] = "0"\n'
    assert text(data, by["VLLM_A"].delete_span) == b'"VLLM_A": "1", '
    assert text(data, by["VLLM_C"].delete_span) == b'os.environ.update(VLLM_C="3")\n'
    assert text(data, by["VLLM_C"].name_span) == b"VLLM_C"
    assert by["VLLM_LOGGING_LEVEL"].delete_span is None  # only statement of its block
    assert by["HF_HOME"].delete_span is None  # shares its line
    assert text(data, by["VLLM_WORKER_MULTIPROC_METHOD"].value_text_span) == b"spawn"
    assert ex.launches == []


def test_environ_alias_imported_after_use_order_independent():
    data, ex = ext('import os as o\no.environ["VLLM_X"] = "1"\n')
    assert [e.name for e in ex.env] == ["VLLM_X"]
    _, ex = ext('environ = {}\nenviron["VLLM_X"] = "1"\n')
    assert ex.env == []


def test_create_subprocess_exec_with_starred_named_list():
    src = '''\
import asyncio

async def start_server(model):
    cmd = ["vllm", "serve", model, "--port", "8000"]
    cmd.extend(["--max-num-seqs", "64"])
    cmd.extend(extra_args)
    cmd.append("--enforce-eager")
    return await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE)
'''
    data, ex = ext(src)
    la = only(ex)
    assert [t.text for t in la.tokens] == ["model", "--port", "8000", "--max-num-seqs", "64", "extra_args",
                                           "--enforce-eager"]
    assert la.opaque and la.tokens[5].splat
    out = apply(data, la.delete_tokens(la.tokens[3:5]))
    assert parses(out) and b"cmd.extend([])" in out


def test_list_literal_starred_name():
    src = 'import subprocess\nBASE = ["vllm", "serve"]\nsubprocess.run([*BASE, "m", "--seed", "1"])\n'
    _, ex = ext(src)
    assert [t.text for t in only(ex).tokens] == ["m", "--seed", "1"]


def test_shell_true_with_named_fstring():
    pytest.importorskip("vllm_lint.frontends.shell")
    src = 'import subprocess\ncmd = f"vllm serve {m} --tensor-parallel-size {tp} --seed 3"\nsubprocess.Popen(cmd, shell=True)\n'
    data, ex = ext(src)
    la = only(ex)
    assert [t.text for t in la.tokens][1:] == ["--tensor-parallel-size", "${PYTHON_EXPR_1}", "--seed", "3"]
    assert text(data, la.tokens[1].text_span) == b"--tensor-parallel-size"
    assert text(data, la.tokens[2].span) == b"{tp}"
    assert la.span == Span(data.index(b"subprocess.Popen"), len(data) - 1)


def test_shell_string_with_escapes_and_crlf():
    pytest.importorskip("vllm_lint.frontends.shell")
    src = b'import os\r\nos.system("VLLM_LOGGING_LEVEL=DEBUG vllm serve \\"m\\" --seed 1\\n")\r\n'
    data, ex = ext(src)
    la = only(ex)
    assert [t.text for t in la.tokens] == ["m", "--seed", "1"]
    assert text(data, la.tokens[1].text_span) == b"--seed"
    assert text(data, la.tokens[0].text_span) == b"m"  # inside \"m\": the m itself is verbatim
    envs = la.env + ex.env
    assert any(e.name == "VLLM_LOGGING_LEVEL" and text(data, e.name_span) == b"VLLM_LOGGING_LEVEL" for e in envs)


def test_shlex_split_literal():
    pytest.importorskip("vllm_lint.frontends.shell")
    data, ex = ext('import shlex, subprocess\nsubprocess.run(shlex.split("vllm serve m --seed 2"))\n')
    la = only(ex)
    assert [t.text for t in la.tokens] == ["m", "--seed", "2"]
    assert text(data, la.tokens[2].text_span) == b"2"


def test_multiple_kwargs_launches_and_order():
    src = ('from vllm import LLM, EngineArgs\n'
           'a = LLM("m1", seed=1)\n'
           'def f():\n'
           '    return EngineArgs(model="m2", seed=2)\n'
           'b = LLM("m3")\n')
    _, ex = ext(src)
    assert [(la.entry, la.model) for la in ex.launches] == [("LLM", "m1"), ("EngineArgs", "m2"), ("LLM", "m3")]


def test_lambda_and_class_scopes():
    src = ('from vllm import LLM\n'
           'cfg = {"seed": 1}\n'
           'class Server:\n'
           '    cfg = {"seed": 2}\n'
           '    def start(self):\n'
           '        return LLM("m", **cfg)\n'
           'make = lambda: LLM("m", **cfg)\n')
    _, ex = ext(src)
    assert [keyed(la)["seed"] for la in ex.launches] == [1, 1]  # class bodies do not scope methods


def test_lambda_defaults_are_read_in_the_enclosing_scope():
    src = ('from vllm import LLM\n'
           'cfg = {"seed": 3}\n'
           'make = lambda cfg={"seed": 5}, llm=LLM("m1", **cfg), *, e=LLM("m2", seed=4): llm\n'
           'def f(x=lambda y=LLM("m3"): y): pass\n')
    _, ex = ext(src)
    assert [(la.model, keyed(la).get("seed")) for la in ex.launches] == [("m1", 3), ("m2", 4), ("m3", None)]


def test_tuple_argv_has_no_delete():
    _, ex = ext('import subprocess\nsubprocess.run(("vllm", "serve", "m", "--seed", "1"))\n')
    la = only(ex)
    assert la.delete_tokens(la.tokens[1:3]) is None


def test_keyword_value_spanning_lines_and_nested_call():
    src = ('from vllm import LLM\n'
           'llm = LLM(model=os.path.join(\n'
           '    root, "model"),\n'
           '    hf_overrides={"architectures": ["X"],\n'
           '                  "max_position_embeddings": 2048},\n'
           '    seed=0)\n')
    data, ex = ext(src)
    by = {k.key: k for k in only(ex).keyed}
    assert by["model"].value_opaque
    assert by["hf_overrides"].value == {"architectures": ["X"], "max_position_embeddings": 2048}
    assert cut(data, by["hf_overrides"].delete_span).endswith(b'"model"),\n    seed=0)\n')


# ---------------------------------------------------------------------------------------------
# property: generated layouts; deleting any argument leaves valid code with the others intact


def _gen_call(rng: random.Random) -> tuple[str, list[str]]:
    values = ["1", "-2", "0.5", "'s'", '"d"', "True", "None", "[1, 2]", "{'a': 1}", "(3)", "x.y", "f(1, 2)",
              "'é'", "r'\\d'"]
    keys = rng.sample(["seed", "swap_space", "max_model_len", "tensor_parallel_size", "dtype",
                       "enforce_eager", "quantization", "trust_remote_code"], rng.randint(1, 6))
    seps = [", ", ",", ",\n    ", ",\n        ", ", # c\n    ", ",\r\n    ", " ,  ", ",\\\n    "]
    parts = []
    if rng.random() < 0.5:
        parts.append(rng.choice(["'m'", '"org/model"', "path"]))
    parts += [f"{k}={rng.choice(values)}" for k in keys]
    if rng.random() < 0.2:
        parts.append("**extra")
    rng.shuffle(parts)
    # keywords in random order, but valid Python: positionals first, then keywords, then **
    pos = [p for p in parts if "=" not in p and not p.startswith("**")]
    kw = [p for p in parts if "=" in p and not p.startswith("**")]
    st = [p for p in parts if p.startswith("**")]
    parts = pos + kw + st
    body = ""
    for i, p in enumerate(parts):
        body += p
        if i + 1 < len(parts):
            body += rng.choice(seps)
    lead = rng.choice(["", "\n    ", " ", "  # open\n    "])
    trail = rng.choice(["", ",", ",\n", "\n", " ", "  # close\n"])
    return f"llm = LLM({lead}{body}{trail})\n", keys


def test_generated_layouts_delete_cleanly():
    rng = random.Random(7)
    for _ in range(400):
        call, keys = _gen_call(rng)
        src = "from vllm import LLM\n# ünï\n" + call + "print(llm)\n"
        data = src.encode()
        try:
            ast.parse(data)
        except SyntaxError:
            continue
        ex = py.extract(data, "t.py")
        check_invariants(data, ex)
        la = only(ex)
        for ka in la.keyed:
            if ka.key_span is None:
                continue
            out = cut(data, ka.delete_span)
            again = only(py.extract(out, "t.py"))
            remaining = [k.key for k in again.keyed]
            expected = [k.key for k in la.keyed if k is not ka]
            assert remaining == expected, (src, ka.key, out)
            assert b",," not in out and b"(," not in out, out


def test_rebound_names_make_launch_opaque_and_branch_argvs_are_each_a_launch():
    src = ('import subprocess\nfrom vllm import LLM\n'
           'if big:\n    cmd = ["vllm", "serve", "m", "--tp", "8"]\n    kw = {"seed": 1}\n'
           'else:\n    cmd = ["vllm", "serve", "m"]\n    kw = {"seed": 2}\n'
           'subprocess.run(cmd)\nLLM("m", **kw)\n')
    data, ex = ext(src)
    # an argv bound in each branch: one launch per branch, at its list, each read whole
    argv = [la for la in ex.launches if la.style == "argv"]
    assert [(text(data, la.span), [t.text for t in la.tokens], la.opaque) for la in argv] == [
        (b'["vllm", "serve", "m", "--tp", "8"]', ["m", "--tp", "8"], False),
        (b'["vllm", "serve", "m"]', ["m"], False),
    ]
    assert [la.opaque for la in ex.launches if la.style == "kwargs"] == [True]


def test_subprocess_docker_run_gpus_sets_hardware():
    _d, ex = ext(
        'import subprocess\n'
        'subprocess.run(["docker", "run", "--gpus", "2", "vllm/vllm-openai:v0.8.5", "--model", "m"])\n'
        'subprocess.run("docker run --gpus device=0,1,2 vllm/vllm-openai:v0.8.5 --model m", shell=True)\n'
        'subprocess.run(["docker", "run", "--gpus", "all", "vllm/vllm-openai:v0.8.5", "--model", "m"])\n'
    )
    got = [(la.hardware.gpu_count, la.hardware.source) for la in ex.launches]
    assert got == [(2, "docker --gpus"), (3, "docker --gpus"), (None, None)]


def test_docker_run_image_tag_in_a_subprocess_list_is_a_version_hint():
    from vllm_lint.frontends import python as fp

    data = (b'import subprocess\nsubprocess.run(["docker", "run", "--gpus", "2", "vllm/vllm-openai:v0.8.5",'
            b' "--model", "m", "--swap-space", "4"])\n')
    (launch,) = fp.extract(data, "x.py").launches
    (hint,) = launch.version_hints
    assert hint.version == "v0.8.5" and hint.source == "image-tag"
    assert data[hint.span.start:hint.span.end] == b'"vllm/vllm-openai:v0.8.5"'
    assert launch.hardware.gpu_count == 2


# ---------------------------------------------------------------------------------------------
# the walk enters only statements whose lines can matter (issue 7): what it must still find

_FAR = "def unrelated(a):\n    return [a.real for _ in range(3)]\n\n"  # code with nothing to find


@pytest.mark.parametrize(
    "src, entry",
    [
        # the name after the dot on a later line, past a backslash continuation or comments
        ('import subprocess\ndef f():\n    return subprocess.\\\n        run(["vllm", "serve", "m", "--seed", "1"])\n',
         "vllm serve"),
        ('import subprocess\nclass A:\n    def f(self):\n        return (subprocess.  # start it.\n'
         '                # (the server.)\n                Popen)(["vllm", "serve", "m", "--seed", "1"])\n',
         "vllm serve"),
        # a callee imported under another name, in another function: only the alias is on the line
        ('def helper():\n    from subprocess import Popen as Start\n\ndef main():\n'
         '    if True:\n        return Start(["vllm", "serve", "m", "--seed", "1"])\n', "vllm serve"),
        ('from vllm import LLM as Engine\nclass A:\n    def f(self):\n        return Engine(model="m", seed=1)\n', "LLM"),
        # in a decorator: before the ``def`` line
        ('import subprocess\n@register(subprocess.run(["vllm", "serve", "m", "--seed", "1"]))\ndef f():\n    pass\n',
         "vllm serve"),
        # an identifier in other characters that NFKC-normalise to the name
        ('from vllm import LLM\ndef f():\n    return \uff2c\uff2c\uff2d(model="m", seed=1)\n', "LLM"),
        ('import subprocess\ndef f():\n    subprocess.\uff52\uff55\uff4e(["vllm", "serve", "m", "--seed", "1"])\n', "vllm serve"),
        # blocks of every kind
        ('import subprocess\nmatch mode:\n    case "serve" if ok:\n        subprocess.run(["vllm", "serve", "m", "--seed", "1"])\n',
         "vllm serve"),
        ('from vllm import LLM\ntry:\n    pass\nexcept Exception:\n    with a:\n        for i in x:\n            pass\n'
         '        else:\n            while y:\n                LLM(model="m", seed=1)\n', "LLM"),
        ('from vllm import LLM\nasync def f():\n    async with a:\n        async for i in x:\n'
         '            await g(lambda: LLM(model="m", seed=1))\n', "LLM"),
        ('from vllm import LLM\nx = 1; y = [LLM(model="m", seed=1)]\n', "LLM"),
    ],
)
def test_launch_found_in_any_statement(src, entry):
    _, ex = ext(_FAR + src + "\n" + _FAR)
    la = only(ex)
    assert la.entry == entry
    assert keyed(la).get("seed") == 1 or [t.text for t in la.tokens][-2:] == ["--seed", "1"]


@pytest.mark.parametrize("nl", [b"\n", b"\r\n", b"\r"])
def test_launch_found_deep_in_any_line_ending(nl):
    src = (b"import subprocess\n\nclass A:\n    x = 1\n\n    def f(self):\n        if self:\n"
           b"            pass\n        else:\n            subprocess.run([\n                \"vllm\", \"serve\", \"m\",\n"
           b"                \"--seed\", \"1\",\n            ])\n")
    data, ex = ext(_FAR.encode() + src.replace(b"\n", nl))
    la = only(ex)
    assert [t.text for t in la.tokens] == ["m", "--seed", "1"]
    out = apply(data, la.delete_tokens(la.tokens[1:]))
    assert parses(out) and b"--seed" not in out


def test_environ_through_an_alias_in_a_nested_block():
    src = 'from os import environ as E\ndef setup():\n    if True:\n        a = 1; E["VLLM_USE_V1"] = "1"\n'
    _, ex = ext(_FAR + src)
    assert [(e.name, e.value) for e in ex.env] == [("VLLM_USE_V1", "1")]


def test_binding_without_any_launch_word_is_still_resolved():
    """Names are looked up in statements the walk skipped: ``cmd`` is bound and extended in an
    ``if`` at module level and used in a method."""
    src = ('import subprocess\nif True:\n    cmd = ["vllm", "serve", "m"]\n    cmd.extend(["--seed", "1"])\n'
           'class Server:\n    port = 1\n    def start(self):\n        return subprocess.Popen(cmd)\n')
    _, ex = ext(_FAR + src)
    la = only(ex)
    assert [t.text for t in la.tokens] == ["m", "--seed", "1"]
    assert not la.opaque


@pytest.mark.parametrize("shadow", ["def LLM(**kw):\n        pass", "class LLM:\n        pass", "LLM = make()"])
def test_module_level_definition_in_a_block_shadows_the_bare_name(shadow):
    _, ex = ext(f"if ready:\n    {shadow}\ndef f():\n    return LLM(model='m')  # vllm\n")
    assert ex.launches == []


def test_line_ends_are_only_cr_and_lf():
    """A form feed, \\x0b, \\x1c-\\x1e, NEL and U+2028 end a line for str.splitlines, not for Python."""
    src = ('# \x0c \x0b \x1c \x1d \x1e \x85 \u2028 \u2029\nX = "\x0c\x0b\x1c\x1d\x1e\x85\u2028"\n'
           'from vllm import LLM\nllm = LLM(model="m", seed=3)\n')
    data, ex = ext(src)
    by = {k.key: k for k in only(ex).keyed}
    assert text(data, by["seed"].key_span) == b"seed"
    assert text(data, by["model"].value_text_span) == b"m"


@pytest.mark.parametrize(
    "literal, verbatim",
    [("'m'", True), ('"m"', True), ("''", True), ("'say \"hi\"'", True), ('"it\'s"', True), ("'a\tb'", True),
     ("'caf\u00e9'", True), ("'a\\'b'", False), ("'a' 'b'", False), ("'''m'''", True), ("rb'm'", False)],
)
def test_string_literal_text_span(literal, verbatim):
    data, ex = ext(f"from vllm import LLM\nLLM(model={literal})\n")
    (k,) = only(ex).keyed
    assert k.value == ast.literal_eval(literal)
    assert (k.value_text_span is not None) == verbatim  # check_invariants: the span spells the value


def test_no_reference_cycles_left_behind():
    """A cycle through the extractor kept the file's whole tree alive until a full collection."""
    import gc

    src = ('import subprocess\nfrom vllm import LLM\ncmd = ["vllm", "serve", "m"]\ncmd += ["--seed", "1"]\n'
           'subprocess.run(cmd + ["--port", "1"])\nkw = {"seed": 1}\nLLM("m", **kw)\n'
           'import os\nos.environ.update({"VLLM_X": "1"})\n')
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        ex = py.extract(src.encode(), "t.py")
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
    assert len(ex.launches) == 2 and [e.name for e in ex.env] == ["VLLM_X"]


def test_garbage_collector_switched_back_on():
    """extract() runs with the cyclic collector off, and leaves it as it found it."""
    import gc

    enabled = gc.isenabled()
    try:
        gc.enable()
        py.extract(b"from vllm import LLM\nLLM(model='m')\n", "t.py")
        assert gc.isenabled()
        with pytest.raises(ParseError):
            py.extract(b"from vllm import LLM\ndef (:\n", "t.py")
        assert gc.isenabled()
        gc.disable()
        py.extract(b"from vllm import LLM\nLLM(model='m')\n", "t.py")
        assert not gc.isenabled()
    finally:
        if enabled:
            gc.enable()


@pytest.mark.parametrize("first,second", [("import subprocess32 as subprocess", "import subprocess"),
                                          ("import subprocess", "import subprocess32 as subprocess"),
                                          ("from vllm import LLM", "from other import LLM"),
                                          ("from other import LLM", "from vllm import LLM")])
def test_a_name_imported_twice_keeps_the_binding_that_can_start_vllm(first, second):
    """Alternative imports (try/except ImportError) bind one name twice; either may run."""
    src = (f"try:\n    {first}\nexcept ImportError:\n    {second}\n\n"
           "subprocess.run(['vllm', 'serve', 'm', '--swap-space', '4'])\nLLM(model='m', swap_space=4)\n")
    styles = sorted(launch.style for launch in py.extract(src.encode(), "t.py").launches)
    assert styles == ["argv", "kwargs"]  # (an LLM imported from nowhere is read as vLLM's, as in docs)


def test_an_llm_imported_from_elsewhere_is_not_vllms():
    src = "from other import LLM\nLLM(model='m', swap_space=4)\n"
    assert py.extract(src.encode(), "t.py").launches == []
