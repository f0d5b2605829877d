"""What start-up refuses in an option of device ids (``--device-ids``, vLLM 0.24+).

The facts are scraped per release (``device_id_checks`` of the release file, read from the
``EngineArgs`` method ``create_engine_config`` calls on every start): how the option's type turns
its value into ids (``items``) and what the method refuses (``checks``). What the platform's
``device_control_id_to_physical_device_id`` accepts is the same in every release that has it:
``int(id)`` on every platform, and on CUDA also a GPU UUID (an NVML lookup of ``GPU-...`` /
``MIG-...``); anything else raises on every platform.
"""

from __future__ import annotations

from typing import Optional, Union

#: NVML's UUID prefixes: CUDA may resolve such a string on a machine that has the device
_UUID_PREFIXES = ("GPU-", "MIG-")


def _items(value: str, items: Optional[str]) -> Optional[list[Union[int, str]]]:
    """The ids the option's type makes of ``value`` (``comma_digits``: split at commas, each part
    stripped, digit parts as integers); None for an item shape not known here."""
    if items != "comma_digits":
        return None
    out: list[Union[int, str]] = []
    for part in (p.strip() for p in value.split(",")):
        out.append(int(part) if part.isdigit() and part.isascii() else part)
    return out


def _platform_takes(device_id: str) -> bool:
    """Whether some platform's ``device_control_id_to_physical_device_id`` may accept the string."""
    try:
        int(device_id)
        return True
    except ValueError:
        return device_id.upper().startswith(_UUID_PREFIXES)


def device_ids_problem(written: str, value: str, check: dict) -> Optional[str]:
    """Why start-up refuses ``value`` for the option written ``written``, or None when it may pass
    (integers that the machine's ``CUDA_VISIBLE_DEVICES`` may not hold are left alone)."""
    ids = _items(value, check.get("items"))
    if ids is None:
        return None
    shown_value = value if value.strip() else '""'
    checks = set(check.get("checks") or ())
    if "unique" in checks and len(set(ids)) != len(ids):
        twice = next(i for n, i in enumerate(ids) if i in ids[:n])
        return f"`{written} {shown_value}` names device `{twice}` twice"
    strings = [i for i in ids if isinstance(i, str)]
    if strings and len(strings) == len(ids):
        bad = next((s for s in strings if not _platform_takes(s)), None)
        if "platform_ids" in checks and bad is not None:
            shown = f"`{bad}`" if bad else "an empty id"
            return (f"`{written} {shown_value}`: {shown} is neither a device number nor a GPU UUID "
                    "(`GPU-...`, `MIG-...`) on any platform")
        return None
    if strings and "not_mixed" in checks:
        return f"`{written} {shown_value}` mixes device numbers and other ids (`{strings[0]}`)"
    return None
