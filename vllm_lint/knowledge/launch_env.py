"""What a launch's environment is known to hold, for the start-up checks that read a variable.

vLLM refuses some launches depending on an environment variable (0.32+: ``--grpc-port`` unless
``VLLM_USE_RUST_FRONTEND`` is on; the check is scraped per release as a test of the variable's
truth, ``serve_checks``). A file shows only part of a process's environment: what it sets for
the launch (``VAR=x vllm serve``, ``export``, a container's ``env:``, ``docker run -e``: the
launch's ``env``, after ``reach``) is known; what it does not set is known to be absent only where
the file describes the whole environment: a Kubernetes container or compose service whose
variables are all written in the file (no ``envFrom`` / ``env_file``, no template; the
front-end's ``Container.env_complete``) running vLLM's own image (``vllm/vllm-openai``, whose
Dockerfile sets none of the variables these checks read). Anywhere else (a shell, a script, an
image of another's) the caller's environment may hold it: unknown, and the rule stays silent.
"""

from __future__ import annotations

from ..images import image_is_vllms_own

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

#: the states of a variable in a launch's environment
SET, ABSENT, UNKNOWN = "set", "absent", "unknown"

#: words every boolean variable of vLLM reads as on / off (``bool(int(x))``, ``x.lower() in
#: ("1", "true")``); any other word is left to the release (it may raise, or read as off)
_ON, _OFF = frozenset({"1"}), frozenset({"0"})


def complete(launch: Any) -> Optional[str]:
    """Why the launch's environment is fully described by the file (the container and image
    that say so), or None where the caller's environment may add to it."""
    c = getattr(launch, "container", None)
    if c is None or not getattr(c, "env_complete", False) or launch.chart is not None:
        return None
    image = c.run_image or c.image
    if not image_is_vllms_own(image):
        return None
    return f"the {c.platform} container's environment is all in the file and `{image}` sets none of vLLM's variables"


def lookup(launch: Any, name: str) -> tuple[str, Optional[str], Any]:
    """(state, value, the assignment or None) of ``name`` in the launch's environment: SET with
    its value (None where the value is not known statically), ABSENT where the file describes the
    whole environment and does not set it, else UNKNOWN."""
    found = None
    for e in getattr(launch, "env", ()) or ():
        if e.name == name:
            found = e  # the last assignment wins
    if found is not None:
        return SET, (None if found.value_opaque else found.value), found
    return (ABSENT if complete(launch) else UNKNOWN), None, None


def truth(launch: Any, name: str, default: Any) -> tuple[Optional[bool], str]:
    """Whether vLLM reads ``name`` as on for this launch: True / False, or None when not known
    statically; and why, in words (for the message or ``--verbose``). ``default``: the release's
    value of the variable when it is unset (its ``env`` entry), None when not known."""
    state, value, _ = lookup(launch, name)
    if state == SET:
        if value is None:
            return None, f"`{name}` is set to a value not known statically"
        if value.strip() in _ON:
            return True, f"`{name}={value}`"
        if value.strip() in _OFF:
            return False, f"`{name}={value}`"
        return None, f"`{name}={value}` is not a value every release reads the same way"
    if state == ABSENT:
        if not isinstance(default, bool):
            return None, f"the default of `{name}` is not known"
        return default, f"without `{name}` ({complete(launch)})"
    return None, (f"`{name}`, which the launch's environment does not show (the caller's environment or "
                  "the image may set it)")
