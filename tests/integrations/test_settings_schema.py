"""The JSON schema of ``[tool.vllm-lint]`` shipped for editors (vllm_lint/data/vllm-lint.schema.json):
generated from the settings table, and in agreement with the in-house validator."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from vllm_lint.settings import SCHEMA_FILE, SETTINGS, ConfigError, _validate, json_schema


def test_the_shipped_schema_is_generated_from_the_settings_table():
    assert json.loads(SCHEMA_FILE.read_text()) == json_schema(), \
        "regenerate: python -m vllm_lint.settings > vllm_lint/data/vllm-lint.schema.json"
    jsonschema.Draft7Validator.check_schema(json_schema())


def test_the_schema_ships_in_the_package():
    import importlib.resources

    assert importlib.resources.files("vllm_lint").joinpath("data/vllm-lint.schema.json").is_file()


_VALUES = st.one_of(st.booleans(), st.integers(-3, 10), st.floats(-1.0, 2.0, allow_nan=False),
                    st.sampled_from(["", " ", "0.27", "warning", "fatal", "error", "VL1"]),
                    st.lists(st.sampled_from(["VL1", "x", 3]), max_size=3),
                    st.dictionaries(st.sampled_from(["VL1", "k8s/*"]),
                                    st.one_of(st.sampled_from(["info", "loud", 1]),
                                              st.lists(st.sampled_from(["VL1", 2]), max_size=2)), max_size=2))


@hyp_settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from([*SETTINGS, "target-versoin"]), _VALUES, max_size=3))
def test_schema_and_validator_agree(table):
    valid = jsonschema.Draft7Validator(json_schema()).is_valid(table)
    try:
        _validate(table, Path("pyproject.toml"))
        accepted = True
    except ConfigError:
        accepted = False
    assert accepted == valid, table


@pytest.mark.parametrize("table,needle", [
    ({"moe-gpu-memory-utilization-threshold": 1.5}, "between 0 and 1"),
    ({"gpus": 0}, "at least 1"),
    ({"fail-on": "fatal"}, "must be one of error, warning, info"),
    ({"severity": {"VL1": "loud"}}, "must be one of"),
])
def test_out_of_range_values_are_refused_naming_the_file(run_cli, tmp_path, monkeypatch, table, needle):
    """Defect 18: thresholds took out-of-range values."""
    key, value = next(iter(table.items()))
    text = f"{key} = {json.dumps(value)}\n" if not isinstance(value, dict) else \
        f"{key} = {{ {', '.join(f'{json.dumps(k)} = {json.dumps(v)}' for k, v in value.items())} }}\n"
    (tmp_path / ".vllm-lint.toml").write_text(text)
    (tmp_path / "a.sh").write_text("vllm serve m\n")
    monkeypatch.chdir(tmp_path)
    r = run_cli("a.sh")
    assert r.exit_code == 2 and needle in r.stderr and ".vllm-lint.toml" in r.stderr and key in r.stderr


def test_configuration_errors_name_the_file(run_cli, tmp_path, monkeypatch):
    """Defect 18: an unknown release or rule code in the configuration did not name the file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.sh").write_text("vllm serve m\n")
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\ntarget-version = "9.9"\n')
    r = run_cli("a.sh")
    assert r.exit_code == 2 and "pyproject.toml" in r.stderr and "9.9" in r.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nselect = ["VL9"]\n')
    r = run_cli("a.sh")
    assert r.exit_code == 2 and "pyproject.toml" in r.stderr and "VL9" in r.stderr


def test_the_keys_a_rule_declares_are_configuration_keys_with_its_bounds_and_defaults():
    """Issue 31 item 7: rules declare their own settings (``Rule.settings``); ``settings`` composes them."""
    from pathlib import Path

    import pytest

    from vllm_lint.rules.base import registry
    from vllm_lint.settings import Settings

    declared = [(rule.code, spec) for rule in registry().values() for spec in rule.settings]
    assert {spec.key for _, spec in declared} >= {"moe-gpu-memory-utilization-threshold",
                                                  "moe-gpu-memory-utilization-cap", "ep-min-activation-density"}
    for code, spec in declared:
        assert SETTINGS[spec.key].help.startswith(f"{code}: ") and getattr(Settings(), spec.attribute) == spec.default
        assert json_schema()["properties"][spec.key]["type"] == spec.type
    with pytest.raises(ConfigError, match="between 0 and 1"):
        _validate({"ep-min-activation-density": 2.0}, Path("x.toml"))
    got = _validate({"ep-min-activation-density": 0.5}, Path("x.toml"))
    assert got.ep_min_activation_density == 0.5 and got.merged(gpu="H100").ep_min_activation_density == 0.5
    with pytest.raises(TypeError):
        Settings(no_such_threshold=1)
