"""Nix front-end: a NixOS configuration's OCI containers (image, ``cmd`` list, ``environment``),
names bound once in the file read as their string, every word at its bytes."""

from __future__ import annotations

from pathlib import Path

from span_invariants import check_spans

from vllm_lint.frontends import nix as N

HERE = Path(__file__).resolve().parent


def test_container_with_let_bound_image_and_model():
    data = (HERE / "oci-containers.nix").read_bytes()
    ex = N.extract(data, "oci-containers.nix")
    check_spans(data, ex)
    (la,) = ex.launches
    assert la.entry == "docker:vllm/vllm-openai:v0.27.1" and la.image == "vllm/vllm-openai:v0.27.1"
    texts = [t.text for t in la.tokens]
    assert texts == ["--model", "facebook/opt-125m", "--swap-space", "4", "--max-model-len", "4096"]
    model = la.tokens[1]
    assert not model.opaque and data[model.span.start:model.span.end] == b'"facebook/opt-125m"'
    assert [(e.name, e.value) for e in la.env] == [("VLLM_USE_V1", "1")]
    assert [h.version for h in la.version_hints] == ["v0.27.1"]


def test_settings_set_is_no_container_and_unknown_names_stay_opaque():
    data = (b'let s = { image = "vllm/vllm-openai:v0.27.1"; model = "a"; model2 = "b"; }; in {\n'
            b'  c = {\n    image = s.image;\n    cmd = [ "--model" s.other "--max-model-len" (toString 4096) ];\n  };\n}\n')
    ex = N.extract(data, "x.nix")
    (la,) = ex.launches
    assert [t.opaque for t in la.tokens] == [False, True, False, True]


def test_a_file_without_a_container_is_read_for_its_command_lines():
    data = (b"{ pkgs, ... }: {\n  systemd.services.vllm.script = ''\n"
            b"    vllm serve facebook/opt-125m --swap-space 4\n  '';\n}\n")
    ex = N.extract(data, "vllm.nix")
    assert [la.entry for la in ex.launches] == ["vllm serve"]
