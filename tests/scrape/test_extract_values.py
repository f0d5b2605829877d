"""What the extractor records about the words an option takes: a type that rewrites the word before
the choice check (``transform``), choices computed from a Literal, the KEY=VALUE fallback of
0.8.5-0.9.x, dict fields that vLLM turns into ``union_dict_and_str``, an enum nested in a class.
Each case mirrors a release checked with its real parser (tools/crosscheck/run.py's choice probes
and type comparison)."""

from __future__ import annotations

from test_extract_eras import SOURCE, by_name, load_tree

from vllm_lint.scrape.extract import extract_release
from vllm_lint.scrape.tree import DictTree

ARG_UTILS = "vllm/engine/arg_utils.py"
CONFIG = "vllm/config/__init__.py"


def extract_patched(era: str, patches: dict[str, list[tuple[str, str]]]) -> dict:
    tree = load_tree(era)
    files = {p: tree.read(p) for p in tree.paths()}
    for path, pairs in patches.items():
        text = files[path].decode()
        for old, new in pairs:
            assert old in text, (path, old)
            text = text.replace(old, new, 1)
        files[path] = text.encode()
    return extract_release(DictTree(files), "0.0.0", SOURCE)


ANCHOR = 'TaskOption = Literal["auto", "generate", "embed"]\n'
DTYPE = '        model_group.add_argument("--dtype", **model_kwargs["dtype"])\n'


def test_a_type_that_rewrites_the_word_is_recorded_as_its_string_methods():
    rec = extract_patched("era_0_10", {ARG_UTILS: [(DTYPE, DTYPE + """\
        model_group.add_argument("--moe-backend", choices=["auto", "flashinfer_cutlass"],
                                 type=lambda s: s.lower().replace("-", "_"))
        model_group.add_argument("--upper", choices=["A"], type=str.upper)
        model_group.add_argument("--titled", choices=["Ab"], type=lambda s: s.title())
        model_group.add_argument("--other", choices=["a"], type=lambda s: other(s).lower())
        model_group.add_argument("--ids", type=lambda s: [p.strip() for p in s.split(",")])
""")]})
    o = by_name(rec)
    assert o["--moe-backend"]["transform"] == [["lower"], ["replace", "-", "_"]]
    assert o["--moe-backend"]["choices"] == ["auto", "flashinfer_cutlass"]
    assert o["--upper"]["transform"] == [["upper"]]
    for name in ("--titled", "--other", "--ids", "--dtype"):  # not a chain of the known methods
        assert "transform" not in o[name], name


def test_choices_built_from_permutations_of_a_literal():
    # 0.9.2-0.27: `choices += [",".join(p) for p in permutations(get_args(DetailedTraceModules), r=2)]`
    rec = extract_patched("era_0_10", {ARG_UTILS: [
        ("import sys\n", "import sys\nfrom itertools import permutations\n"),
        (DTYPE, DTYPE + """\
        traces = {"choices": ["model", "worker"]}
        traces["choices"] += [",".join(p) for p in permutations(["model", "worker"], r=2)]
        model_group.add_argument("--collect-detailed-traces", nargs="+", **traces)
""")]})
    assert by_name(rec)["--collect-detailed-traces"]["choices"] == [
        "model", "worker", "model,worker", "worker,model"]


def test_the_key_value_fallback_is_marked_only_on_the_wrapped_json_loads():
    fallback = '''def parse_type(return_type):
    def _parse_type(val):
        if return_type is json.loads and not re.match("^{.*}$", val):
            return nullable_kvs(val)
        return return_type(val)
    return _parse_type
'''
    added = DTYPE + """\
        model_group.add_argument("--rope-scaling", type=parse_type(json.loads))
        model_group.add_argument("--mm-kwargs", type=optional_type(parse_type(json.loads)))
        model_group.add_argument("--allowed-headers", type=json.loads)
"""
    patches = {ARG_UTILS: [("def parse_type(return_type):\n    return return_type\n", fallback),
                           (DTYPE, added)]}
    o = by_name(extract_patched("era_0_10", patches))
    assert o["--rope-scaling"]["kvs_fallback"] is True and o["--mm-kwargs"]["kvs_fallback"] is True
    assert "kvs_fallback" not in o["--allowed-headers"] and o["--allowed-headers"]["type"] == "json"
    # a release whose parse_type has no fallback (0.10+): nothing marked
    o = by_name(extract_patched("era_0_10", {ARG_UTILS: [(DTYPE, added)]}))
    assert not any("kvs_fallback" in x for x in o.values())


def test_dict_fields_with_a_forward_reference_or_any_are_dict_or_str():
    config = '''

@dataclass
class PoolerConfig:
    pooling_type: Optional[str] = None


TensorizerConfig = Any


@dataclass
class ExtraConfig:
    pooler: Optional[Union[dict, "PoolerConfig"]] = None
    loader_extra: Union[dict, TensorizerConfig] = field(default_factory=dict)
    plain: dict[str, int] = field(default_factory=dict)
'''
    rec = extract_patched("era_0_10", {
        CONFIG: [(ANCHOR, ANCHOR + config)],
        ARG_UTILS: [
            ("from vllm.config import (", "from vllm.config import (ExtraConfig, "),
            # the extractor models get_kwargs' dict branches from the names its text uses
            ("    return kwargs\n", "    _ = union_dict_and_str\n    return kwargs\n"),
            (DTYPE, DTYPE + """\
        extra_kwargs = get_kwargs(ExtraConfig)
        model_group.add_argument("--override-pooler-config", **extra_kwargs["pooler"])
        model_group.add_argument("--model-loader-extra-config", **extra_kwargs["loader_extra"])
        model_group.add_argument("--plain", **extra_kwargs["plain"])
""")]})
    o = by_name(rec)
    assert (o["--override-pooler-config"]["type"], o["--override-pooler-config"]["kind"]) == ("dict_or_str", "json")
    assert rec["json_configs"]["override_pooler_config"]["class"] == "PoolerConfig"
    assert (o["--model-loader-extra-config"]["type"], o["--model-loader-extra-config"]["kind"]) == (
        "dict_or_str", "valued")
    assert o["--plain"]["type"] == "json"


def test_choices_over_an_enum_nested_in_a_class():
    # 0.4: choices=[t.name.lower() for t in VisionLanguageConfig.ImageInputType]
    config_add = '''

class VisionLanguageConfig:
    class ImageInputType(enum.Enum):
        PIXEL_VALUES = enum.auto()
        IMAGE_FEATURES = enum.auto()
'''
    rec = extract_patched("era_0_10", {
        CONFIG: [("from dataclasses import field\n", "import enum\nfrom dataclasses import field\n"),
                 (ANCHOR, ANCHOR + config_add)],
        ARG_UTILS: [
            ("from vllm.config import (", "from vllm.config import (VisionLanguageConfig, "),
            (DTYPE, DTYPE + """\
        model_group.add_argument("--image-input-type", type=str, default=None,
                                 choices=[t.name.lower() for t in VisionLanguageConfig.ImageInputType])
""")]})
    assert by_name(rec)["--image-input-type"]["choices"] == ["pixel_values", "image_features"]


def test_a_union_of_two_literals_marks_the_values_not_in_both():
    # 0.8.5's --guided-decoding-backend: get_kwargs takes one Literal of the union, the first of a
    # set of type hints, so which one changes from process to process
    rec = extract_patched("era_0_10", {CONFIG: [
        (ANCHOR, ANCHOR + 'OtherTask = Literal["auto", "score"]\n'),
        ("    task: Optional[TaskOption] = None\n", "    task: Optional[Union[TaskOption, OtherTask]] = None\n")]})
    task = by_name(rec)["--task"]
    assert [c for c in task["choices"] if c != "None"] == ["auto", "embed", "generate", "score"]
    assert task["choices_vary"] == ["embed", "generate", "score"]
    assert "choices_vary" not in by_name(rec)["--dtype"]
