"""The launch of a container written as an object of a configuration language other than YAML (a
Terraform or Nomad HCL block, a NixOS ``oci-containers`` set, a TypeScript / JavaScript object
literal of Pulumi, cdk8s or the AWS CDK): its image, command and arguments as words at their bytes, filled into the same
:class:`vllm_lint.container.Container` as a Kubernetes container's. The readers find the object and
its words; this module decides whether it starts vLLM (a command that does, or arguments only to an
image whose entrypoint does) and builds the launch."""

from __future__ import annotations

from typing import Optional

from vllm_lint.launch import EnvAssign, Extraction, Hardware, Span, Token

Words = list[tuple[Token, tuple[int, int]]]


def container_launch(data: bytes, path: str, platform: str, span: Span, image_word: Optional[Token],
                     command: Words, args: Words, env: list[EnvAssign], out: Extraction,
                     hardware: Optional[Hardware] = None) -> bool:
    """Append the launch of the container, if it starts vLLM; say whether it did. ``hardware``: the
    GPUs the object requests, when the reader found a request."""
    from vllm_lint.container import Container
    from vllm_lint.frontends.commands import find_vllm_command, image_is_vllm, image_starts_vllm
    from vllm_lint.frontends.commands import image_takes_vllm_args, version_from_image
    from vllm_lint.launch import Launch, VersionHint

    image = image_word.text if image_word is not None and not image_word.opaque else None
    words = command + args
    found = find_vllm_command([tok.text for tok, _r in words]) if words else None
    entry, start = (found.entry, found.args_start) if found else (None, 0)
    if entry is None and not command and image and image_starts_vllm(image) and image_takes_vllm_args(image):
        entry = f"docker:{image}"
    if entry is None:
        return False
    hints = []
    if image and image_is_vllm(image):
        v = version_from_image(image)
        if v:
            k = data.rfind(v.encode(), image_word.span.start, image_word.span.end)
            hints.append(VersionHint(v, "image-tag", Span(k, k + len(v.encode())) if k >= 0 else image_word.span,
                                     image))
    hw = hardware if hardware is not None else Hardware()
    tokens = [tok for tok, _r in words[start:]]
    box = Container(platform, span, image=image, image_span=image_word.span if image_word else None,
                    run_image=image, command=[t.text for t, _r in command], args=[t.text for t, _r in args],
                    env=env, hardware=hw, version_hints=hints)
    la = Launch(path=path, entry=entry, style="argv", span=span, tokens=tokens, env=list(env),
                version_hints=list(hints), hardware=hw, delete_tokens=list_deleter(words[start:]),
                opaque=any(t.splat for t in tokens))
    la.container = box
    if image:
        la.image = image
    out.launches.append(la)
    return True


def list_deleter(words: Words):
    """``delete_tokens`` for list items: a run of items is cut with what separates it from the
    next item, or from the previous one when it ends its list; never a whole list."""
    where = {id(tok): k for k, (tok, _r) in enumerate(words)}

    def delete_tokens(toks: list[Token]) -> Optional[list]:
        from vllm_lint.launch import Edit

        idx = sorted({where[id(t)] for t in toks if id(t) in where})
        if len(idx) != len(toks) or len(idx) == len(words):
            return None
        edits = []
        k = 0
        while k < len(idx):
            a = b = idx[k]
            while k + 1 < len(idx) and idx[k + 1] == b + 1:
                k += 1
                b = idx[k]
            if b + 1 < len(words):
                edits.append(Edit(Span(words[a][1][0], words[b + 1][1][0]), ""))
            else:
                edits.append(Edit(Span(words[a - 1][1][1], words[b][1][1]), ""))
            k += 1
        return edits

    return delete_tokens
