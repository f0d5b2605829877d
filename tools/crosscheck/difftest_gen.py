"""Seeded command-line generators of the differential tester (pure; no vLLM, no vllm_lint import).

A generated line is a list of *units*; a unit is the list of words one option occurrence (or the
positional model) takes on the command line. Shrinking removes whole units. ``vocabulary`` is
built from the release files of ``flag_db/`` (every release's options, so removed and future
option strings are drawn too); the realistic generator draws units mined from real deployment
files (``realistic_units.json``, see ``mine_units``).

Two generators, each a pure function of (vocabulary, target release record, seed):

* ``realistic``: a model and 2-8 units drawn by frequency from the mined units, as written there
  (spellings, values and mistakes of real files);
* ``edge``: a model (or ``--model`` forms, or none) and 1-4 units from the edge categories below.
"""

from __future__ import annotations

import json
import random
import re
import shlex
from pathlib import Path
from typing import Any, Callable, Optional

Unit = list[str]
Line = list[Unit]

MODELS = ["m", "meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "/models/llama"]
#: options never generated: they print and exit, read files, or start other things
EXCLUDED = {"--help", "-h", "--version", "--config"}


class Vocabulary:
    """Every option string of every release, each with the record of the newest release that has
    it, and every JSON config's fields by dest."""

    def __init__(self, releases: dict[str, dict[str, Any]]):
        self.releases = releases
        self.by_string: dict[str, dict[str, Any]] = {}
        self.json_fields: dict[str, dict[str, Any]] = {}
        for _v, rec in releases.items():  # oldest first: newer records win
            for o in rec.get("options", []):
                for s in [o["name"], *o.get("aliases", [])]:
                    self.by_string[s] = o
            for dest, cfg in (rec.get("json_configs") or {}).items():
                self.json_fields.setdefault(dest, {}).update(cfg.get("fields") or {})
        self.strings = sorted(s for s in self.by_string if s not in EXCLUDED)
        self.long_strings = [s for s in self.strings if s.startswith("--")]


def load_vocabulary(db_dir: Path) -> Vocabulary:
    from packaging.version import Version

    files = sorted((db_dir / "releases").glob("*.json"), key=lambda p: Version(p.stem))
    return Vocabulary({p.stem: json.loads(p.read_text()) for p in files})


# ----------------------------------------------------------------------------------------------
# values

_WORDS = ["foo", "auto", "none", "None", "", "true", "1", "x/y"]


def _scalar_for(type_name: Optional[str], rng: random.Random) -> str:
    t = (type_name or "str").lower()
    if t.startswith("int") or t == "human_int" and rng.random() < 0.5:
        return str(rng.choice([0, 1, 2, 4, 8, 16, 256, 4096]))
    if t == "human_int" or t == "human_int_or_auto":
        return rng.choice(["32k", "4096", "1K", "2m", "auto" if t.endswith("auto") else "8192"])
    if t.startswith("float"):
        return rng.choice(["0.9", "0.5", "1", "4"])
    if t.startswith("bool"):
        return rng.choice(["true", "false"])
    if t == "json":
        return rng.choice(['{"a": 1}', "{}"])
    return rng.choice(["foo", "bar-baz", "/tmp/x", "meta-llama/Llama-3.1-8B"])


def _bad_scalar_for(type_name: Optional[str], rng: random.Random) -> str:
    t = (type_name or "str").lower()
    if t.startswith("int"):
        return rng.choice(["abc", "1.5", "1k", "", "None", "-1"])
    if t.startswith("human"):
        return rng.choice(["abc", "1.5.2", "k", "", "None", "-1", "32kb"])
    if t.startswith("float"):
        return rng.choice(["abc", "1,5", "", "None", "inf", "1e-2"])
    if t == "json":
        return rng.choice(["{bad", "[1, 2]", "3", "null", "", "None", "a=1", '{"a": }'])
    return rng.choice(_WORDS)


def value_for(o: dict[str, Any], rng: random.Random, valid: bool = True) -> list[str]:
    """Value words for option record ``o`` (valid by the record, or a likely-invalid one)."""
    kind = o.get("kind")
    if kind in ("switch", "negatable"):
        return []
    if kind == "bool_value":
        return [rng.choice(["true", "false", "True", "1"] if valid else ["yes", "maybe", ""])]
    n: Any = o.get("nargs")
    count = rng.randint(1, 3) if n in ("+", "*") else n if isinstance(n, int) else 1
    if n == "?" and rng.random() < 0.4:
        return []
    out = []
    for _ in range(count):
        if o.get("choices"):
            if valid:
                out.append(str(rng.choice(o["choices"])))
            else:
                c = str(rng.choice(o["choices"]))
                out.append(rng.choice([c.upper(), c + "x", "bogus", "None", "none", ""]))
        elif valid:
            out.append(_scalar_for(o.get("type"), rng))
        else:
            out.append(_bad_scalar_for(o.get("type"), rng))
    return out


def _field_value(f: dict[str, Any], rng: random.Random, valid: bool) -> Any:
    t = (f.get("type") or "str").replace(" ", "")
    if f.get("choices") and valid:
        return rng.choice(f["choices"])
    if not valid:
        return rng.choice(["abc", 1.5, [1], {"x": 1}, True, None, -1])
    if t.startswith("int"):
        return rng.choice([0, 1, 2, 3, 8])
    if t.startswith("float"):
        return rng.choice([0.5, 1.0, 2])
    if t.startswith("bool"):
        return rng.choice([True, False])
    if t.startswith("list[int") or t.startswith("tuple[int"):
        return [1, 2, 4]
    if t.startswith("list"):
        return ["a"]
    if t.startswith("dict"):
        return {"k": 1}
    if t.startswith("str"):
        return rng.choice(["foo", "auto"])
    return rng.choice([1, "foo", True, None])


def json_unit(name: str, o: dict[str, Any], voc: Vocabulary, rng: random.Random) -> Unit:
    fields = voc.json_fields.get(o.get("dest") or "", {})
    keys = sorted(fields)
    r = rng.random()
    if not keys or r < 0.15:
        return [name, _bad_scalar_for("json", rng) if rng.random() < 0.5 else "{}"]
    key = rng.choice(keys)
    valid = rng.random() < 0.6
    if r < 0.25:
        key = rng.choice(["_enabled", "bogus_key", key + "x", key.upper()])
    val = _field_value(fields.get(key, {}), rng, valid)
    if rng.random() < 0.5:  # dotted
        shown = val if isinstance(val, str) else json.dumps(val)
        if rng.random() < 0.3:
            return [f"{name}.{key}={shown}"]
        return [f"{name}.{key}", shown]
    return [name, json.dumps({key: val})]


# ----------------------------------------------------------------------------------------------
# spellings


def underscored(s: str) -> str:
    return "--" + s[2:].replace("-", "_") if s.startswith("--") else s


def prefix_of(s: str, rng: random.Random) -> str:
    if len(s) <= 4:
        return s
    return s[: rng.randint(3 if s.startswith("--") else 2, len(s) - 1)]


# ----------------------------------------------------------------------------------------------
# edge cases


def _plain(voc: Vocabulary, target: dict, rng: random.Random, valid: bool = True) -> Unit:
    o = rng.choice(target["options"])
    while o["name"] in EXCLUDED:
        o = rng.choice(target["options"])
    s = rng.choice([o["name"], *o.get("aliases", [])])
    if o.get("kind") == "json" and rng.random() < 0.7:
        return json_unit(s, o, voc, rng)
    return [s, *value_for(o, rng, valid)]


def e_target_valid(voc, target, rng):
    return _plain(voc, target, rng)


def e_target_invalid(voc, target, rng):
    return _plain(voc, target, rng, valid=False)


def e_any_release(voc, target, rng):
    s = rng.choice(voc.strings)
    o = voc.by_string[s]
    if o.get("kind") == "json" and rng.random() < 0.5:
        return json_unit(s, o, voc, rng)
    return [s, *value_for(o, rng)]


def e_prefix(voc, target, rng):
    s = rng.choice(voc.long_strings if rng.random() < 0.8 else voc.strings)
    o = voc.by_string[s]
    return [prefix_of(s, rng), *value_for(o, rng)]


def e_underscore(voc, target, rng):
    u = e_any_release(voc, target, rng) if rng.random() < 0.5 else e_target_valid(voc, target, rng)
    return [underscored(u[0].split("=")[0]) + ("=" + u[0].split("=", 1)[1] if "=" in u[0] else ""), *u[1:]]


def e_equals(voc, target, rng):
    u = e_target_valid(voc, target, rng) if rng.random() < 0.7 else e_any_release(voc, target, rng)
    if len(u) == 2 and "=" not in u[0]:
        return [f"{u[0]}={u[1]}"]
    if len(u) == 1 and rng.random() < 0.5:
        return [f"{u[0]}={rng.choice(['true', 'false', '1', ''])}"]
    return u


def e_negation(voc, target, rng):
    o = rng.choice([x for x in target["options"] if x.get("kind") in ("switch", "negatable", "bool_value")]
                   or target["options"])
    base = o["name"]
    forms = ["--no-" + base[2:], base.replace("--enable-", "--disable-"), base.replace("--disable-", "--enable-"),
             *o.get("negations", [])]
    return [rng.choice(forms)]


def e_switch_value(voc, target, rng):
    sw = [x for x in target["options"] if x.get("kind") in ("switch", "negatable")
          and x["name"] not in EXCLUDED]
    if not sw:
        return e_target_valid(voc, target, rng)
    o = rng.choice(sw)
    s = rng.choice([o["name"], *o.get("aliases", [])])
    w = rng.choice(["true", "false", "1", "True", "$EAGER"])
    return [f"{s}={w}"] if rng.random() < 0.3 else [s, w]


def e_o_forms(voc, target, rng):
    return rng.choice([["-O3"], ["-O", "3"], ["-O=3"], ["-O0"], ["-O4"], ["-O.level=3"], ["-O.mode", "3"],
                       ["-O", '{"level": 3}'], ["-O"], ["-Ox"], ["-O", "1"], ["-O2"], ["-O.cudagraph_capture_sizes",
                                                                                          "[1, 2]"]])


def e_missing_value(voc, target, rng):
    vals = [x for x in target["options"] if x.get("kind") in ("valued", "json") and x["name"] not in EXCLUDED]
    o = rng.choice(vals)
    return [rng.choice([o["name"], *o.get("aliases", [])])]


def e_stray(voc, target, rng):
    return [rng.choice(["extra", "serve", "true", "2", "vllm"])]


def e_short(voc, target, rng):
    shorts = sorted({s for s in voc.strings if not s.startswith("--")})
    s = rng.choice(shorts)
    o = voc.by_string[s]
    v = value_for(o, rng)
    r = rng.random()
    if r < 0.25 and v:
        return [s + v[0], *v[1:]]
    if r < 0.45:
        return [prefix_of(s, rng), *v]
    if r < 0.55 and v:
        return [f"{s}={v[0]}", *v[1:]]
    return [s, *v]


EDGE: dict[str, Callable[[Vocabulary, dict, random.Random], Unit]] = {
    "target-valid": e_target_valid, "target-invalid": e_target_invalid, "any-release": e_any_release,
    "prefix": e_prefix, "underscore": e_underscore, "equals": e_equals, "negation": e_negation,
    "switch-value": e_switch_value, "o-forms": e_o_forms, "missing-value": e_missing_value,
    "stray": e_stray, "short": e_short,
}


def _prints_help(word: str) -> bool:
    """``--help`` and its prefixes (``--hel``) print and exit: the line is never parsed."""
    w = word.split("=")[0].replace("_", "-")
    return w == "-h" or len(w) >= 4 and "--help".startswith(w)


def model_units(rng: random.Random, edge: bool) -> list[Unit]:
    m = rng.choice(MODELS)
    if not edge:
        return [[m]]
    r = rng.random()
    if r < 0.75:
        return [[m]]
    if r < 0.85:
        return [["--model", m]]
    if r < 0.92:
        return [[m], ["--model", m]]
    if r < 0.96:
        return [[f"--model={m}"]]
    return []


def edge(voc: Vocabulary, target: dict[str, Any], seed: int) -> Line:
    rng = random.Random(seed)
    line = model_units(rng, edge=True)
    names = sorted(EDGE)
    for _ in range(rng.randint(1, 4)):
        u = EDGE[rng.choice(names)](voc, target, rng)
        while _prints_help(u[0]):
            u = EDGE[rng.choice(names)](voc, target, rng)
        # the missing-value case needs a following option or the end of the line
        line.insert(rng.randint(1 if line and not line[0][0].startswith("-") else 0, len(line)), u)
    return line


# ----------------------------------------------------------------------------------------------
# realistic


def realistic(units: dict[str, Any], seed: int) -> Line:
    """``units``: {"models": [..], "units": [[words, count], ...]} mined from real files."""
    rng = random.Random(seed)
    pool = units["units"]
    weights = [c for _, c in pool]
    line: Line = [[rng.choice(units["models"])]]
    seen: set[str] = set()
    for _ in range(rng.randint(2, 8)):
        words = list(rng.choices(pool, weights)[0][0])
        key = words[0].split("=")[0].replace("_", "-")
        if key in seen:
            continue
        seen.add(key)
        line.append(words)
    return line


_VAR = re.compile(r"\$|\{\{|<[A-Za-z_]|\}\}|^\[|^`")


def mine_units(texts: list[str], takes_value: Callable[[str], Optional[bool]]) -> dict[str, Any]:
    """Units of every ``vllm serve`` command line in ``texts`` (documents, scripts, YAML): backslash
    continuations joined, split like the shell; words with variables, templates or placeholders
    dropped with their unit. ``takes_value(string)``: does that option take a value (True, False,
    "many" for nargs + / *, None when unknown: then a following non-option word is its value)."""
    counts: dict[tuple[str, ...], int] = {}
    models: dict[str, int] = {}
    for text in texts:
        joined = re.sub(r"\\\r?\n", " ", text)
        for m in re.finditer(r"\bvllm serve\s+([^\n]*)", joined):
            stmt = re.split(r"\s(?:&&|\|\||\||;|>|2>|#)\s", " " + m.group(1))[0]
            try:
                words = shlex.split(stmt)
            except ValueError:
                continue
            i = 0
            while i < len(words):
                w = words[i]
                if not w.startswith("-"):
                    if i == 0 and not _VAR.search(w) and "/" in w or w == "m":
                        models[w] = models.get(w, 0) + 1
                    i += 1
                    continue
                unit = [w]
                i += 1
                if "=" not in w:
                    tv = takes_value(w.split(".")[0].replace("_", "-"))
                    if "." in w or tv or tv is None and i < len(words) and not words[i].startswith("-"):
                        while i < len(words) and not words[i].startswith("-") or (
                                i < len(words) and re.fullmatch(r"-\d+(\.\d+)?", words[i])):
                            unit.append(words[i])
                            i += 1
                            if tv != "many":
                                break
                if any(_VAR.search(x) for x in unit) or any(x.strip() != x for x in unit) or \
                        w.split("=")[0] in EXCLUDED:
                    continue
                key = tuple(unit)
                counts[key] = counts.get(key, 0) + 1
    return {"models": sorted(models) or MODELS,
            "units": [[list(k), c] for k, c in sorted(counts.items())]}


#: the values the sweep gives an option without choices, by its DB type (``sweep``)
SWEEP_VALUES: dict[str, list[str]] = {
    "int": ["1", "x", "1.5", "None", ""],
    "float": ["0.5", "x", "None", ""],
    "human_int": ["32k", "4096", "x", "None", ""],
    "human_int_or_auto": ["32k", "auto", "x", "None", ""],
    "json": ["{}", '{"a": 1}', "a=1", "x", "", "None", "[1]", "{bad}", "3"],
    "dict_or_str": ["{}", '{"a": 1}', "a=1", "x", "", "None", "{bad}"],
    "kvs": ["image=2", "a=x", "x", ""],
    "bool": ["true", "false", "yes", "maybe", ""],
    "str": ["x", "None", ""],
}


def sweep(target: dict[str, Any]) -> list[Line]:
    """Every option of the release that takes a value, once with each of a fixed set of values
    (no seed: the same lines every run): its choices as written, upper-case, with ``-`` for
    ``_``, two choices, a comma pair, ``None``, the empty word and a word that is no choice; for
    an option without choices the values of ``SWEEP_VALUES`` for its type. Each line is the
    model and one unit, so a disagreement is already minimal."""
    lines: list[Line] = []
    for o in target.get("options", []):
        name = o["name"]
        if name in EXCLUDED or name == "--model" or o.get("kind") in ("switch", "negatable"):
            continue
        many = o.get("nargs") in ("+", "*")
        if o.get("choices"):
            cs = [str(c) for c in o["choices"]]
            vals = list(cs) + [cs[0].upper(), "None", "", "bogus"]
            vals += [c.replace("_", "-") for c in cs if "_" in c][:1]
            if len(cs) > 1:
                vals.append(f"{cs[0]},{cs[1]}")
            units = [[name, v] for v in dict.fromkeys(vals)]
            if many and len(cs) > 1:
                units.append([name, cs[0], cs[1]])
        else:
            t = "json" if o.get("kind") == "json" else (o.get("type") or "str")
            units = [[name, v] for v in SWEEP_VALUES.get(t, SWEEP_VALUES["str"])]
        if o.get("kind") == "optional_value":
            units.append([name])
        lines += [[["m"], u] for u in units]
    return lines


def flatten(line: Line) -> list[str]:
    return [w for u in line for w in u]
