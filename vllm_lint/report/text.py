"""ruff-style text output: ``path:row:col: CODE [*] message`` and a closing summary."""

from __future__ import annotations

from collections import Counter

from . import ReportContext

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "info": "\033[36m"}
_BOLD, _RESET = "\033[1m", "\033[0m"


def _fixable(d, ctx: ReportContext) -> bool:
    return d.fix is not None and (d.fix.applicability == "safe" or ctx.unsafe_fixes and d.fix.applicability == "unsafe")


def render(results, ctx: ReportContext, concise: bool = False) -> str:
    lines = []
    diags = [d for r in results for d in r.diagnostics]
    for d in diags:
        code = d.code
        mark = " [*]" if _fixable(d, ctx) else ""
        loc = f"{d.path}:{d.row}:{d.column}:"
        if ctx.color:
            loc = f"{_BOLD}{loc}{_RESET}"
            code = f"{_COLORS.get(d.severity, '')}{_BOLD}{code}{_RESET}"
        line = f"{loc} {code}{mark} {d.message}"
        if not concise and d.target_version and d.code != "VL001":
            line += f" [vllm {d.target_version}]"
        if d.fix_blocked:
            line += f" (fix not applied: {d.fix_blocked})"
        lines.append(line)
    if ctx.statistics:
        lines = []
        counts = Counter(d.code for d in diags)
        fixable = Counter(d.code for d in diags if _fixable(d, ctx))
        from ..rules.base import registry

        reg = registry()
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            name = reg[code].name if code in reg else ""
            mark = "[*]" if fixable.get(code) else "   "
            lines.append(f"{n:>5}\t{code}\t{mark} {name}")
    if ctx.quiet:
        return "\n".join(lines) + ("\n" if lines else "")
    n = len(diags)
    fixable_n = sum(1 for d in diags if _fixable(d, ctx))
    unsafe_n = sum(1 for d in diags if d.fix is not None and d.fix.applicability == "unsafe" and not ctx.unsafe_fixes)
    summary = []
    if ctx.fix_mode and ctx.fixed_count:
        summary.append(f"Found {n + ctx.fixed_count} problem{'s' if n + ctx.fixed_count != 1 else ''} "
                       f"({ctx.fixed_count} fixed, {n} remaining).")
    elif n:
        summary.append(f"Found {n} problem{'s' if n != 1 else ''}.")
    elif not ctx.no_launch:
        summary.append("All checks passed!")
    if fixable_n and not ctx.fix_mode:
        summary.append(f"[*] {fixable_n} fixable with the `--fix` option.")
    if unsafe_n:
        summary.append(f"({unsafe_n} hidden fix{'es' if unsafe_n != 1 else ''} can be enabled with the `--unsafe-fixes` option.)")
    if ctx.reading_note:
        summary.append(ctx.reading_note)
    body = "\n".join(lines)
    return (body + "\n" if body else "") + "\n".join(summary) + "\n"
