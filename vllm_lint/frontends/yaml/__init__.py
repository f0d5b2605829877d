"""YAML front-end: vLLM launches in Kubernetes manifests, compose files, Helm values, vLLM
``--config`` files, task files (SkyPilot, dstack, GitHub Actions, GitLab CI) and any YAML string
that holds a vLLM command.

This module is the format unit's face (:mod:`vllm_lint.frontends.base` registers it): the
pre-filter, extraction in each mode, the fixer's checks and where suppression comments go. The
package's modules, in the order a file meets them:

* :mod:`.loader`: bytes to PyYAML nodes with byte positions (libyaml's ``compose_all``, a cached
  implicit-tag resolver, size and merge-conflict checks), the fixer's parse checks;
  :mod:`.templates`: ``{{ ... }}`` filled with same-length filler, what they touch made opaque;
* :mod:`.text`: one parsed text, the byte spans of its nodes (:mod:`.scalar` maps a decoded value
  back to the bytes that spell it; nothing is ever re-serialised), tokens, keyed arguments and
  the launches built from them; :mod:`.nodes`, :mod:`.words` (shell-like splitting of strings
  not run by a shell), :mod:`.deleters` (cutting a launch's words out of the file);
* :mod:`.walk`: which reader takes which part of a document; :mod:`.containers`, :mod:`.env`,
  :mod:`.hardware`: Kubernetes containers and compose services, their environment and GPUs;
* one module per ecosystem: :mod:`.helm` (image values, ``default`` expressions,
  production-stack), :mod:`.values` (a chart's values known by their content), :mod:`.kserve`, :mod:`.kubeai`, :mod:`.llm_d`, :mod:`.ray`, :mod:`.lws`,
  :mod:`.ci` (GitHub Actions, GitLab CI), :mod:`.tasks` (SkyPilot, dstack), :mod:`.argocd` (an
  Application's chart rendered with its helm overrides); those of a platform a
  Deployment never is (KServe, llm-d, LLMInferenceService, Ray, LeaderWorkerSet), a chart's values
  (:mod:`.chart_values`) and a launcher's ``str.format`` fields are imported when a document holds
  their marker (:mod:`.walk`, :mod:`.containers`);
* :mod:`.config_file`: vLLM ``--config`` files; :mod:`.suppression`: comments and block scalars
  (the format's suppression hooks, imported when first asked for).

PyYAML's node tree (``start_mark``/``end_mark`` and each scalar's ``style``, at ~1.5 MB/s) is
what makes byte-exact fixes possible. ruamel.yaml's round-trip mode is deliberately *not* used:
it is 10-20x slower, gives only start positions, and re-emits untouched bytes (quotes dropped,
sequences re-indented, long scalars folded, CRLF mixed), which would turn a one-token fix into a
noisy diff.

Every word of a scalar has its own span, in folded (``>``) blocks and in plain and quoted
scalars over several lines too (:mod:`.scalar`), so fixes apply there. Gaps: flow mappings (``{a: 1}``) give no ``delete_span``; deleting every item of a
block list leaves ``key:`` (null); a Helm ``if``/``else`` whose branch the values do not decide is
opaque; a named template whose body holds control structures, or that renders a YAML structure
(``| nindent``), stays unknown.
"""

from __future__ import annotations

import gc

from vllm_lint.frontends.yaml.config_file import config_launch, extract_config_file, looks_like_config_file
from vllm_lint.frontends.yaml.loader import MAX_BYTES, parse_check, prepare, same_meaning
from vllm_lint.frontends.yaml.prefilter import depends_on_others, might_contain_launch, might_contain_launch_at
from vllm_lint.frontends.yaml.templates import apply_templates
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.frontends.yaml.walk import walk_document
from vllm_lint.frontends.yaml.words import split_words
from vllm_lint.launch import Extraction, ParseError
from vllm_lint.frontends.base import JINJA_SUFFIXES as _JINJA_SUFFIXES
from vllm_lint.frontends.base import TEMPLATE_SUFFIXES as _TEMPLATE_SUFFIXES
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any

# a vLLM command line in a template's text (what a values-decided branch may hold)
_VLLM_COMMAND = lazy_re(rb"\bvllm[ \t]+serve\b|\bvllm\.entrypoints\.openai\.api_server\b|[\"']vllm[\"'][ \t]*,[ \t]*[\"']serve[\"']")

FORMAT = "yaml"

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "might_contain_launch",
    "might_contain_launch_at",
    "depends_on_others",
    "extract",
    "extract_in_mode",
    "extract_config_file",
    "looks_like_config_file",
    "split_words",
    "parse_check",
    "same_meaning",
    "suppression_rows",
    "comment_placements",
    "comment_line_row",
    "is_comment",
]


# the format's hooks for suppression comments (frontends/base.py), in .suppression, imported when
# first asked for (a file with findings and no suppression comment asks for none)
_SUPPRESSION_HOOKS = frozenset(("suppression_rows", "comment_placements", "comment_line_row", "is_comment"))


def __getattr__(name: str) -> Any:
    if name in _SUPPRESSION_HOOKS:
        from vllm_lint.frontends.yaml import suppression

        return getattr(suppression, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def extract(data: bytes, path: str, *, explicit: bool = False) -> Extraction:
    """Launches in a YAML file. ``explicit``: the file was named on the command line, so a
    document shaped like a vLLM ``--config`` file is read as one."""
    # The node trees have no reference cycles and die with this call, yet the cyclic garbage
    # collector's passes, which the composer's allocations trigger, traverse them (and what the
    # walk builds): the collector is off for the call, and back on afterwards if it was on.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _extract(data, path, explicit)
    finally:
        if enabled:
            gc.enable()


def _extract(data: bytes, path: str, explicit: bool, given: Any = None) -> Extraction:
    """``given``: the values to render a chart's template with (an Argo CD Application's: :mod:`.argocd`),
    else its chart's own."""
    out = Extraction()
    original = data
    placeholders = path[-9:].lower().endswith(_TEMPLATE_SUFFIXES) and b"{" in data  # (the name first)
    jinja = placeholders and path[-7:].lower().endswith(_JINJA_SUFFIXES)
    if placeholders:  # (a manifest's template: its ``${NAME}`` / ``{name}`` are what the renderer fills)
        from vllm_lint.frontends.yaml.file_templates import jinja_statements_blanked, placeholders_as_regions

        if jinja:  # (Jinja's statements: what rendering removes)
            data = jinja_statements_blanked(data, path)
        blanked = data
        data = placeholders_as_regions(data)
        placeholders = data != blanked
    values = given
    if b"{{" in data and given is None:  # (a chart's template: its values render it)
        from vllm_lint.frontends.yaml.chart_values import chart_values

        values = chart_values(path)
    filled, regions = prepare(data, values)
    rendered_by = None
    if given is None and values is not None and _VLLM_COMMAND.search(data) and not _VLLM_COMMAND.search(filled):
        from vllm_lint.frontends.yaml.chart_values import override_values

        # the chart's defaults render none of the template's vLLM commands (a back-end switch set
        # to another server): read it as the chart's override values file that renders one does
        for other in override_values(values):
            alt, alt_regions = prepare(data, other)
            if _VLLM_COMMAND.search(alt):
                values, filled, regions, rendered_by = other, alt, alt_regions, other.name
                break
    t = YamlText(filled, path, out, regions=regions)
    if regions:
        t.original = data
        t.values = values
    try:
        docs = t.parse()
    except ParseError as e:
        if regions and not placeholders and not jinja:
            apply_templates(regions, out, data, failed=True)
            return out
        if jinja:  # (as before Jinja's YAML was read: its command lines, as the reader of last resort reads them)
            from vllm_lint.frontends import plaintext

            return plaintext.extract(original, path)
        if placeholders or path[-9:].lower().endswith(_TEMPLATE_SUFFIXES):
            from vllm_lint.frontends.yaml.file_templates import template_as_text

            return template_as_text(original, path, e)
        raise
    for root in docs:
        if explicit and looks_like_config_file(root):
            out.launches.append(config_launch(t, root))
            continue
        walk_document(t, root)
    # An argv launch's delete_tokens keeps the YamlText that found it: without its reference to
    # the extraction, the extraction is no reference cycle and is freed as soon as it is dropped.
    t.out = None  # type: ignore[assignment]
    apply_templates(t.regions, out, data, values=t.values)
    if rendered_by is not None:
        for la in out.launches:
            la.read_as = "; ".join(x for x in (f"the chart's `values.yaml` does not render this launch: read as "
                                                f"`{rendered_by}` renders it", la.read_as) if x)
    if not out.launches:  # a file of images only (Helm values, a compose service without a command)
        for hints in t.idle_images.values():
            out.version_hints.extend(hints)
    if placeholders:
        from vllm_lint.frontends.yaml.file_templates import name_placeholders

        name_placeholders(out)
    return out


def extract_in_mode(data: bytes, path: str, mode: str) -> Extraction:
    """``extract`` in a lint mode: a vLLM ``--config`` file ("config"), a file named on the
    command line ("explicit": a document shaped like a config file is read as one), or found by a
    directory walk ("auto")."""
    if mode == "config":
        return extract_config_file(data, path)
    return extract(data, path, explicit=mode == "explicit")
