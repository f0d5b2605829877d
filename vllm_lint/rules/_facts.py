"""The facts of a context that a rule's ``triggers`` may name besides options, variables and
option states (``Rule.triggers``): what a rule would otherwise test first, on every launch, to
learn that it has nothing to say. When the selected rules name any, the engine finds them once per
context and in one pass (:func:`facts_of`, from ``pipeline.engine._named``), and calls a rule
only for a context holding one of its triggers; the GPUs a fact reads are the context's own
(``knowledge.hardware.gpus``, kept in ``ctx.memo`` for the rules that then run), looked up only
when a rule names a GPU fact.

Each name holds a space, as ``option_state``'s do, so that no option's ``dest`` or variable's name
is one. A fact is true wherever the rule that names it might say something (a superset is only
slower); ``tests/core/test_rule_triggers.py`` holds every rule to its triggers on every fixture."""

from __future__ import annotations

from ..knowledge.hardware import gpu_memory_gib, gpus

#: ``--verbose``'s notes are kept (``LintContext.notes``): rules that note why they stayed silent
#: run for every context then
NOTES = "fact notes"
#: the file's first context (``rules._file_scope.is_first_context``): rules about a file's text
FIRST_CONTEXT = "fact first-context"
#: the launch names the image it runs in (``Launch.image``)
IMAGE = "fact image"
#: a container's script launch: its image named and the script's span (``Launch.script_span``)
IMAGE_SCRIPT = "fact image-script"
#: version hints this context reads: the launch's own, or, on the file's first launch (or its
#: launch-less context when it has none), the file's
HINTS = "fact hints"
#: the release was chosen as one newer than the database (``Choice.kind`` "newer")
NEWER = "fact newer-release"
#: the launch has words a broken line continuation cut off (``Launch.dropped``)
DROPPED = "fact dropped-words"
#: the launch is started by an entrypoint the target release deprecates, written out
DEPRECATED_ENTRY = "fact deprecated-entry"
#: the launch's GPU count is known (requested or visible: ``knowledge.hardware.GPUs``)
GPU_COUNT = "fact gpu-count"
#: the launch's GPU product is one of known memory
GPU_MEMORY = "fact gpu-memory"
#: the launch's GPU product is a Grace-Blackwell system (GB200, GB300, NVL72)
GRACE_BLACKWELL = "fact grace-blackwell"

FACTS = frozenset((NOTES, FIRST_CONTEXT, IMAGE, IMAGE_SCRIPT, HINTS, NEWER, DROPPED, DEPRECATED_ENTRY, GPU_COUNT,
                   GPU_MEMORY, GRACE_BLACKWELL))
_GPU_FACTS = (GPU_COUNT, GPU_MEMORY, GRACE_BLACKWELL)


def facts_of(ctx, wanted: frozenset) -> list[str]:
    """The facts true of the context ``ctx``: those of ``wanted`` (names of :data:`FACTS`) at least.
    The GPUs are looked up only when ``wanted`` names a GPU fact; the others cost an attribute or
    two and are found whatever is wanted (a fact no selected rule names triggers nothing)."""
    out = []
    la = ctx.launch
    ex = ctx.extraction
    if ctx.notes:
        out.append(NOTES)
    first = ex is None or la is (ex.launches[0] if ex.launches else None)  # (rules/_file_scope.py)
    if first:
        out.append(FIRST_CONTEXT)
    if la is not None and la.version_hints or first and ex is not None and ex.version_hints:
        out.append(HINTS)
    c = ctx.target_choice
    if c is not None and c.kind == "newer":
        out.append(NEWER)
    if la is None:
        return out
    if la.image:
        out.append(IMAGE)
        if la.script_span is not None:
            out.append(IMAGE_SCRIPT)
    if la.dropped:
        out.append(DROPPED)
    if la.entry_words is not None and la.entry in ctx.surface.deprecated_entries:
        out.append(DEPRECATED_ENTRY)
    if not wanted.isdisjoint(_GPU_FACTS):
        g = gpus(ctx)
        if g.visible is not None or g.requested is not None:
            out.append(GPU_COUNT)
        if g.product:
            if gpu_memory_gib(g.product) is not None:
                out.append(GPU_MEMORY)
            if g.grace_blackwell:
                out.append(GRACE_BLACKWELL)
    return out
