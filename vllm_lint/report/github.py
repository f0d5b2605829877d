"""GitHub Actions workflow commands: one annotation per finding, shown on the pull request's diff.

``::error file=deploy/serve.sh,line=5,col=3,endLine=5,endColumn=16,title=VL101::message``;
``error`` / ``warning`` / ``notice`` by the finding's severity. Paths are relative to the working
directory (the repository root in a workflow). Property values and messages are escaped as the
runner requires (``%``, CR, LF; and ``:`` / ``,`` inside properties), after their control
characters are escaped (``fsutil.visible``).
"""

from __future__ import annotations

from . import ReportContext, visible

_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _data(s: str) -> str:
    # the runner's encoding of line breaks (no line break can start a workflow command), and every
    # other control character escaped as the text formats show it (no escape sequence reaches the log)
    return visible(s, keep="\r\n").replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(s: str) -> str:
    return _data(s).replace(":", "%3A").replace(",", "%2C")


def render(results, ctx: ReportContext) -> str:
    from .fingerprints import display_path

    lines = []
    for r in results:
        for d in r.diagnostics:
            props = [f"file={_prop(display_path(d.path))}", f"line={d.row}", f"col={d.column}"]
            if d.end_row:
                props += [f"endLine={d.end_row}", f"endColumn={d.end_column}"]
            props.append(f"title={_prop(d.code)}")
            msg = d.message
            if d.target_version and d.code not in ("VL001", "VL003"):
                msg += f" [vllm {d.target_version}]"
            lines.append(f"::{_LEVEL.get(d.severity, 'error')} {','.join(props)}::{_data(msg)}")
    return "\n".join(lines) + ("\n" if lines else "")
