"""The cheap pre-filter: which bytes may hold a launch. Every launch needs one of its words: a
command or image names vllm, a KServe model its ``modelFormat``, a Ray config its
``engine_kwargs``. The walk also uses it to skip documents and collections (:mod:`.walk`)."""

from __future__ import annotations

import os

from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

PREFILTER = lazy_re(rb"(?i)vllm|modelFormat|engine_kwargs")  # the definition; tests compare with it


def might_contain_launch(data: bytes) -> bool:
    """Cheap pre-filter: the bytes mention vLLM (image, command, module, Helm chart keys).

    ``PREFILTER.search(data) is not None``, spelled as substring searches of the ASCII-lowered
    bytes: a case-insensitive regular expression tests every byte in Python's matcher (~14 ns a
    byte), ``bytes.lower`` and ``in`` run at memory speed."""
    return mentions(data.lower(), 0, len(data))


def might_contain_launch_at(data: bytes, path: str) -> bool:
    """The pre-filter's second chance for bytes that name none of its words: a Helm chart's
    template (``.Values`` in it, under a chart's ``templates`` folder) whose chart's ``values.yaml``
    names vLLM renders a launch from it (an image ``{{ .Values.image.repository }}:{{
    .Values.image.tag }}``, arguments from the values). The values are read once per chart
    (:func:`~.chart_values.values_name_vllm`); the analysis reads them as an input of the result.
    An Argo CD Application with a ``helm:`` block and a ``path:`` may render a chart of its checkout
    that names vLLM: read (:mod:`.argocd`), its bytes parsed."""
    if data.find(b"argoproj.io") >= 0 and data.find(b"helm:") >= 0 and data.find(b"path:") >= 0:
        return True  # (an Argo CD Application rendering a chart of its checkout: .argocd reads the chart)
    if data.find(b".Values") < 0:
        return False
    return values_name_vllm(path)


def depends_on_others(data: bytes) -> bool:
    """Whether the pre-filter's verdict on ``data`` may change with another file (a chart's
    values: :func:`might_contain_launch_at`), so that it is not kept as the file's own."""
    return data.find(b".Values") >= 0


def mentions(low: bytes, s: int, e: int) -> bool:
    """``PREFILTER.search(data, s, e) is not None``, given ``low = data.lower()``."""
    return low.find(b"vllm", s, e) >= 0 or low.find(b"modelformat", s, e) >= 0 or (
        low.find(b"engine_kwargs", s, e) >= 0)


#: the largest values file (or named-template file) of a chart that is read, here and by :mod:`.chart_values`
MAX_VALUES_BYTES = 4 * 1024 * 1024


def templates_folder(path: str) -> Optional[str]:
    """The ``templates`` folder of the chart (a ``Chart.yaml`` beside it) that holds ``path``, or None."""
    d = os.path.dirname(os.path.abspath(path))
    if f"{os.sep}templates" not in d:
        return None
    while os.path.basename(d) != "templates":
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
    return d if os.path.isfile(os.path.join(os.path.dirname(d), "Chart.yaml")) else None


# values.yaml's path -> (its size and mtime, whether its bytes pass the pre-filter): read once while
# unchanged, for every template of its chart the pre-filter asks about
_NAMING: dict = {}


def values_name_vllm(path: str) -> bool:
    """Whether the ``values.yaml`` of the chart whose template ``path`` is mentions one of the
    pre-filter's words (:func:`mentions`): a template whose own bytes name no vLLM
    (``image: {{ .Values.image.repository }}:{{ .Values.image.tag }}``) renders a launch from them.
    Read once per chart while its size and mtime are unchanged."""
    from vllm_lint.fsutil import read_regular

    d = templates_folder(path)
    if d is None:
        return False
    where = os.path.join(os.path.dirname(d), "values.yaml")
    try:
        st = os.stat(where)
    except OSError:
        return False
    sig = (st.st_size, st.st_mtime_ns, st.st_ino)
    known = _NAMING.get(where)
    if known is not None and known[0] == sig:
        return known[1]
    try:
        raw = read_regular(where, MAX_VALUES_BYTES)
    except (OSError, ValueError):
        return False
    low = raw.lower()
    got = mentions(low, 0, len(low))
    _NAMING[where] = (sig, got)
    return got
