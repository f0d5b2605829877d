"""Terraform front-end: heredoc manifests and scripts of a ``.tf`` file, ``templatefile``
templates; Terraform's ``${...}`` / ``%{...}`` opaque, every other byte at its offset."""

from __future__ import annotations

from pathlib import Path

from span_invariants import check_spans

from vllm_lint.frontends import terraform as T

HERE = Path(__file__).resolve().parent


def _texts(la):
    return [t.text for t in la.tokens]


def test_heredoc_manifest_and_script():
    data = (HERE / "main.tf").read_bytes()
    ex = T.extract(data, "main.tf")
    check_spans(data, ex)
    deploy, script = ex.launches
    assert deploy.entry == "vllm serve" and deploy.hardware.gpu_count == 2
    assert _texts(deploy)[:3] == ["facebook/opt-125m", "--swap-space", "4"]
    # `<<-`: the body's indentation is stripped, the words stay at their bytes in the file
    k = _texts(deploy).index("--swap-space")
    assert data[deploy.tokens[k].span.start:deploy.tokens[k].span.end] == b"--swap-space"
    tp = deploy.tokens[_texts(deploy).index("--tensor-parallel-size") + 1]
    assert tp.opaque  # "${var.gpus}": known only at apply
    assert script.entry.startswith("docker:") and "--dtype" in _texts(script)


def test_template_file_regions_are_opaque_and_not_edited():
    data = (HERE / "deployment.tftpl").read_bytes()
    (la,) = T.extract(data, "deployment.tftpl").launches
    model = la.tokens[_texts(la).index("--model") + 1]
    assert model.opaque and data[model.span.start:model.span.end] == b'"${model_id}"'
    (edit,) = la.delete_tokens([model])  # a whole item goes, Terraform's bytes with it
    assert data[edit.span.start:edit.span.end] == b'"${model_id}", ' and edit.content == ""
    assert "VLLM_USE_V1" in [e.name for e in la.env]


def test_an_unparseable_heredoc_is_a_note_and_the_rest_is_read():
    data = b"""locals {
  broken = <<EOT
apiVersion: v1
kind: Pod
spec: [vllm
EOT
  ok = <<EOT
apiVersion: v1
kind: Pod
spec:
  containers:
    - image: vllm/vllm-openai:v0.8.5
      args: ["m"]
EOT
}
"""
    ex = T.extract(data, "main.tf")
    assert len(ex.launches) == 1 and ex.launches[0].entry.startswith("docker:")
    (note,) = ex.notes
    assert "heredoc manifest could not be parsed" in note.message
    assert data[note.span.start:note.span.end].startswith(b"apiVersion: v1\nkind: Pod\nspec: [vllm")


def test_escapes_and_a_shell_template():
    from vllm_lint.frontends.interpolations import interpolations_as_regions

    assert interpolations_as_regions(b"a: $${x} %%{y} ${z}")[1] == [(15, 19)]
    data = b"#!/bin/bash\nvllm serve ${model} --swap-space 4\n"
    (la,) = T.extract(data, "user-data.tftpl").launches
    assert _texts(la)[0] == "${model}" and la.tokens[0].opaque


def test_hcl_container_blocks():
    data = (HERE / "kubernetes.tf").read_bytes()
    ex = T.extract(data, "kubernetes.tf")
    check_spans(data, ex)
    deploy, run = ex.launches  # (the nginx container's args are its own)
    assert deploy.entry == "docker:vllm/vllm-openai:v0.27.1" and deploy.hardware.gpu_count == 2
    model = deploy.tokens[1]
    assert model.text == "var.model" and model.opaque and not model.splat
    assert deploy.tokens[4].opaque  # "--max-model-len=${var.max_len}"
    assert [(e.name, e.value) for e in deploy.env] == [("VLLM_USE_V1", "1")]
    assert deploy.version_hints[0].version == "v0.27.1"
    assert run.entry == "vllm serve" and [t.text for t in run.tokens] == ["facebook/opt-125m", "--dtype", "bf16"]
    (edit,) = run.delete_tokens(run.tokens[1:])  # the list's end: the comma before it goes
    assert data[edit.span.start:edit.span.end] == b', "--dtype", "bf16"'
    assert run.delete_tokens(run.tokens) is None  # never the whole list


def test_hcl_args_from_an_expression_are_opaque():
    data = b'container {\n  image = "vllm/vllm-openai:v0.8.5"\n  args = concat(["--model", "m"], var.extra)\n}\n'
    (la,) = T.extract(data, "main.tf").launches
    assert la.opaque and la.tokens[0].splat


def test_a_script_heredoc_without_shebang_and_hcl_strings_are_read_as_plain_text():
    data = b"""resource "aws_instance" "gpu" {
  user_data = <<-EOF
    pip install vllm==0.8.5
    vllm serve facebook/opt-125m --max-model-len 2048
  EOF
}
"""
    (la,) = T.extract(data, "main.tf").launches
    assert la.entry == "vllm serve" and data[la.tokens[0].span.start:la.tokens[0].span.end] == b"facebook/opt-125m"
    data = b'provisioner "remote-exec" {\n  inline = ["nohup vllm serve m --dtype half &"]\n}\n'
    (la,) = T.extract(data, "main.tf").launches
    assert [t.text for t in la.tokens] == ["m", "--dtype", "half"]


def test_hcl_nested_blocks_keep_their_own_attributes():
    data = b"""container {
  liveness_probe {
    exec { command = ["cat", "/tmp/healthy"] }
  }
  image = "vllm/vllm-openai:v0.8.5"
  args  = ["m", "--dtype", "half"] # comment { not a block
  env {
    name  = "VLLM_LOGGING_LEVEL"
    value = "DEBUG"
  }
}
"""
    (la,) = T.extract(data, "main.tf").launches
    assert la.entry == "docker:vllm/vllm-openai:v0.8.5" and [t.text for t in la.tokens] == ["m", "--dtype", "half"]
    assert la.container.command == [] and [e.name for e in la.env] == ["VLLM_LOGGING_LEVEL"]
