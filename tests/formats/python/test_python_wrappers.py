"""Serving frameworks' Python APIs (frontends/python/wrappers.py) and argv lists joined into a
shell string: what each gives the rules, and what is left alone."""

from __future__ import annotations

from vllm_lint.frontends import python as py


def _ex(src: str):
    return py.extract(src.encode(), "app.py")


def test_space_join_of_plain_words_is_the_argv_list():
    src = ('import subprocess\ncmd = ["vllm", "serve", "m", "--port", "8000"]\n'
           'cmd += ["--max-model-len", str(4096)]\nsubprocess.Popen(" ".join(cmd), shell=True)\n')
    (la,) = py.extract(src.encode(), "app.py").launches
    assert la.entry == "vllm serve" and la.style == "argv"
    assert [t.text for t in la.tokens] == ["m", "--port", "8000", "--max-model-len", "str(4096)"]
    assert la.tokens[-1].opaque and not la.tokens[0].opaque
    # a fix edits the list the string is built from
    (edit,) = la.delete_tokens(la.tokens[1:3])
    data = src.encode()
    fixed = data[:edit.span.start] + edit.content.encode() + data[edit.span.end:]
    assert b'cmd = ["vllm", "serve", "m"]\n' in fixed


def test_space_join_of_a_word_the_shell_would_split_is_not_read():
    ex = _ex('import os\nos.system(" ".join(["vllm", "serve", "m", "--served-model-name", "a b"]))\n')
    assert ex.launches == []


def test_shlex_join_keeps_every_word_and_a_join_without_a_shell_is_no_launch():
    ex = _ex('import shlex, subprocess\nsubprocess.run(shlex.join(["vllm", "serve", "m", "--x", "a b"]), shell=True)\n'
             'subprocess.run(" ".join(["vllm", "serve", "m"]))\n')
    (la,) = ex.launches
    assert [t.text for t in la.tokens] == ["m", "--x", "a b"]


def test_modal_pins_images_and_env():
    ex = _ex('import modal\n'
             'image = modal.Image.debian_slim().pip_install("torch", ["vllm[audio]==0.9.1"])\n'
             'image = image.env({"VLLM_USE_V1": "1"})\n'
             'served = modal.Image.from_registry("vllm/vllm-openai:v0.10.1")\n'
             'ranged = modal.Image.debian_slim().uv_pip_install("vllm>=0.8")\n'
             'other = settings.env({"VLLM_NOT_MODAL": "1"})\n')
    assert [(h.version, h.source) for h in ex.version_hints] == [
        ("0.9.1", "pip-install"), ("v0.10.1", "image-tag"), (">=0.8", "pip-install")]
    assert [(e.name, e.value) for e in ex.env] == [("VLLM_USE_V1", "1")]


def test_a_requirement_span_is_the_string_as_written():
    src = 'import modal\nimage = modal.Image.debian_slim().pip_install("vllm==0.9.1")\n'
    (hint,) = _ex(src).version_hints
    assert src.encode()[hint.span.start:hint.span.end] == b"vllm==0.9.1"


def test_ray_llm_config_follows_names_and_reads_runtime_env():
    ex = _ex('from ray.serve.llm import LLMConfig\n'
             'ENGINE = {"tensor_parallel_size": 2}\n'
             'RUNTIME = {"env_vars": {"VLLM_X": "1"}, "pip": ["vllm"]}\n'
             'cfg = LLMConfig(model_loading_config={"model_id": "a", "model_source": "org/m"},\n'
             '                engine_kwargs=ENGINE | {"max_model_len": 4096}, runtime_env=RUNTIME,\n'
             '                accelerator_type="H100")\n')
    (la,) = ex.launches
    assert la.hardware.gpu_product == "H100"
    assert (la.entry, la.style, la.model) == ("ray.serve.llm", "kwargs", "org/m")
    assert [(k.key, k.value) for k in la.keyed] == [("tensor_parallel_size", 2), ("max_model_len", 4096)]
    assert not la.opaque
    assert [(e.name, e.value) for e in la.env] == [("VLLM_X", "1")]


def test_ray_llm_config_with_unknown_engine_kwargs_is_opaque_and_other_llmconfigs_are_not_read():
    ex = _ex('from ray.serve.llm import LLMConfig\nLLMConfig(engine_kwargs=load())\n'
             'from mylib import LLMConfig as Other\nOther(engine_kwargs={"a": 1})\n')
    (la,) = ex.launches
    assert la.opaque and la.keyed == []


def test_bentoml_envs_and_the_server_parser():
    ex = _ex('import bentoml\n'
             '@bentoml.service(envs=[{"name": "VLLM_X", "value": "1"}, *extra, {"value": "no name"}])\n'
             'class LLM:\n'
             '    def start(self):\n'
             '        from vllm.entrypoints.openai.cli_args import make_arg_parser\n'
             '        from vllm.utils import FlexibleArgumentParser\n'
             '        return make_arg_parser(FlexibleArgumentParser()).parse_args(["--port", "1", *more])\n'
             'import argparse\nargparse.ArgumentParser().parse_args(["--swap-space", "4"])\n')
    assert [(e.name, e.value) for e in ex.env] == [("VLLM_X", "1")]
    (la,) = ex.launches  # the local class LLM is not vLLM's, argparse's parser is not vLLM's
    assert (la.entry, la.style) == ("openai.api_server", "argv")
    assert [t.text for t in la.tokens][:2] == ["--port", "1"] and la.opaque


def test_ray_config_without_vllm_in_the_file_passes_the_prefilter():
    assert py.might_contain_launch(b"LLMConfig(engine_kwargs={})")
    assert not py.might_contain_launch(b"print('hello')")
