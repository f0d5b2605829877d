"""The oracle-grammar generator: command lines built from the REAL parser's own actions.

Input: the grammar the oracle reads from a release's parser (``oracle.py``, op ``grammar``) and
the grammars of the other built releases (their option strings are the removed and future
options). Line ``i`` at release ``v`` with seed ``s`` comes from ``random.Random(f"{s}:grammar:{v}:{i}")``,
so a line is reproducible from its number alone. Pure: no parser, no vllm_lint.
"""

from __future__ import annotations

import json
import random
from typing import Any, Optional

MODELS = ["meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "facebook/opt-125m",
          "/models/llama", "mistralai/Mistral-7B-Instruct-v0.3", "deepseek-ai/DeepSeek-V3"]
WORDS = ["foo", "auto", "bar-baz", "/tmp/x", "1", "true", "none", "None", "x.y"]
#: never generated: they print and exit, or read files / the environment of this machine
SKIP_DESTS = {"help", "version", "config", "config_file", "subparser", "dispatch_function"}

JSONISH_TYPES = ("loads", "parse_dataclass", "from_cli", "from_json", "union_dict_and_str", "parse_type")


class Option:
    """One action of the grammar with the value kind a generator needs."""

    def __init__(self, a: dict[str, Any]):
        self.raw = a
        self.strings: list[str] = a["strings"]
        self.longs = [s for s in self.strings if s.startswith("--")]
        self.shorts = [s for s in self.strings if not s.startswith("--")]
        self.name = max(self.longs or self.strings, key=len)
        self.nargs = a["nargs"]
        self.choices: Optional[list] = a["choices"]
        self.types: list[str] = a["types"]
        self.fields: Optional[list] = a.get("fields")
        self.action = a["action"]
        self.switch = self.nargs == 0
        self.boolean = self.action == "BooleanOptionalAction"
        t = " ".join(self.types)
        self.jsonish = self.fields is not None or any(k in t for k in JSONISH_TYPES)
        if self.choices:
            self.kind = "choice"
        elif self.jsonish:
            self.kind = "json"
        elif "human_readable_int" in t:
            self.kind = "hint"
        elif " int" in f" {t}" or t.endswith("int"):
            self.kind = "int"
        elif "float" in t:
            self.kind = "float"
        elif "kvs" in t:
            self.kind = "kvs"
        else:
            self.kind = "word"


def load(grammar: dict[str, Any]) -> list[Option]:
    return [Option(a) for a in grammar["actions"]
            if not a["positional"] and a["dest"] not in SKIP_DESTS and a["strings"]]


# ---------------------------------------------------------------------------------------------
# values


def valid_scalar(o: Option, r: random.Random) -> str:
    if o.kind == "choice":
        return str(r.choice(o.choices))
    if o.kind == "int":
        return r.choice(["1", "2", "8", "4096", "0"])
    if o.kind == "hint":
        return r.choice(["4096", "32k", "1K", "8192"])
    if o.kind == "float":
        return r.choice(["0.9", "1", "0.5", "2.0"])
    if o.kind == "kvs":
        return r.choice(["image=2", "image=1,video=0"])
    if o.kind == "json":
        return json.dumps(json_object(o, r, wrong=False))
    return r.choice(["foo", "/tmp/x", "meta-llama/Llama-3.1-8B-Instruct", "auto"])


def invalid_scalar(o: Option, r: random.Random) -> str:
    if o.kind == "choice":
        c = str(r.choice(o.choices))
        cands = ["bogus", "None", "none", c.upper(), c.lower(), c + "x", c.replace("_", "-"), ""]
        return r.choice(cands)
    if o.kind in ("int", "hint"):
        return r.choice(["abc", "1.5", "2k", "", "-1", "1e3", "0x10", "auto"])
    if o.kind == "float":
        return r.choice(["abc", "", "0.9.1", "1,5", "nan", "90%"])
    if o.kind == "kvs":
        return r.choice(["image", "image=x", "=2", '{"image": 2}'])
    if o.kind == "json":
        return r.choice(["3", "abc", "[1, 2]", "", '{"a": 1', "null", "true", json.dumps(json_object(o, r, wrong=True))])
    return r.choice(WORDS)


def value_words(o: Option, r: random.Random, valid: bool = True) -> list[str]:
    one = (lambda: valid_scalar(o, r)) if valid else (lambda: invalid_scalar(o, r))
    if o.switch:
        return []
    if o.nargs == "+":
        return [one() for _ in range(r.choice([1, 1, 2, 3]))]
    if o.nargs == "*":
        return [one() for _ in range(r.choice([0, 1, 2]))]
    if o.nargs == "?":
        return r.choice([[], [one()], [one()]])
    if isinstance(o.nargs, int):
        return [one() for _ in range(o.nargs)]
    return [one()]


def field_value(f: dict[str, Any], r: random.Random, wrong: bool) -> Any:
    k = f["kind"]
    if not wrong:
        if k == "bool":
            return r.choice([True, False])
        if k == "int":
            return r.choice([1, 2, 16, 0])
        if k == "float":
            return r.choice([0.5, 1.0, 2])
        if k == "literal":
            return r.choice(f["values"]) if f["values"] else "x"
        if k == "list":
            return r.choice([[1, 2], ["a"], []])
        if k == "dict":
            return r.choice([{}, {"a": 1}])
        if k == "object":
            return {sf["name"]: field_value(sf, r, False) for sf in r.sample(f["fields"], min(1, len(f["fields"])))}
        if k == "str":
            return r.choice(["x", "/tmp/x", "auto"])
        return r.choice(["x", 1, True, None])
    if k == "bool":
        return r.choice(["maybe", 2, [True], {"a": 1}])
    if k in ("int", "float"):
        return r.choice(["abc", {"x": 1}, [1], 1.5 if k == "int" else "1,5"])
    if k == "literal":
        return r.choice(["bogus", 12345])
    if k == "list":
        return r.choice([5, "abc", {"a": 1}])
    if k == "object":
        return r.choice([3, "abc", {"no_such_key": 1}])
    if k == "str":
        return r.choice([{"a": 1}, [1], 3])
    return r.choice([{"a": 1}, "abc"])


def pick_field(o: Option, r: random.Random, odd: bool) -> dict[str, Any]:
    fields = o.fields or []
    public = [f for f in fields if f["init"] and not f["private"]]
    hidden = [f for f in fields if not f["init"] or f["private"]]
    if odd and (hidden or r.random() < 0.5):
        if hidden and r.random() < 0.6:
            return r.choice(hidden)
        return {"name": r.choice(["a", "no_such_key", "enable", "Level"]), "kind": "int", "init": True, "private": False}
    if public:
        return r.choice(public)
    return {"name": r.choice(["a", "key", "level", "model"]), "kind": "other", "init": True, "private": False}


def json_object(o: Option, r: random.Random, wrong: bool) -> dict[str, Any]:
    out = {}
    for _ in range(r.choice([1, 1, 2])):
        odd = wrong and r.random() < 0.5
        f = pick_field(o, r, odd)
        out[f["name"]] = field_value(f, r, wrong and not odd)
    return out


def dotted_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v
    return json.dumps(v)


# ---------------------------------------------------------------------------------------------
# units: one option (as spelled) with its value words


def underscore(s: str) -> str:
    return s[:2] + s[2:].replace("-", "_")


def unit(o: Option, r: random.Random, valid: bool = True, spell: str = "plain") -> list[str]:
    name = o.name
    if spell == "underscore" and name.startswith("--"):
        name = underscore(name)
    vals = value_words(o, r, valid)
    if spell == "equals" and len(vals) == 1:
        return [f"{name}={vals[0]}"]
    return [name, *vals]


def long_prefix(s: str, r: random.Random) -> str:
    body = s[2:]
    if len(body) <= 3:
        return s
    return "--" + body[: r.randint(2, len(body) - 1)]


CATEGORIES = ["valid", "invalid", "spelling", "prefix", "short", "negation", "missing", "switch_word",
              "stray", "json_inline", "json_dotted", "json_nonobject", "O_forms", "other_release"]


def gen_unit(cat: str, opts: list[Option], others: list[Option], r: random.Random) -> list[str]:
    valued = [o for o in opts if not o.switch]
    if cat == "valid":
        return unit(r.choice(opts), r)
    if cat == "invalid":
        cands = [o for o in valued if o.kind != "word"] or valued
        return unit(r.choice(cands), r, valid=False)
    if cat == "spelling":
        return _respelled(r.choice(opts), r)
    if cat == "prefix":
        o = r.choice([o for o in opts if o.longs])
        w = unit(o, r)
        p = long_prefix(max(o.longs, key=len), r)
        if r.random() < 0.3 and len(w) == 2:
            return [f"{p}={w[1]}"]
        return [p, *w[1:]]
    if cat == "short":
        shorts = [o for o in opts if o.shorts]
        if not shorts:
            return unit(r.choice(opts), r)
        o = r.choice(shorts)
        s = r.choice(o.shorts)
        vals = value_words(o, r)
        form = r.choice(["plain", "glued", "equals", "prefix"])
        if form == "glued" and len(vals) == 1:
            return [s + vals[0]]
        if form == "equals" and len(vals) == 1:
            return [f"{s}={vals[0]}"]
        if form == "prefix" and len(s) > 2:
            return [s[: r.randint(2, len(s) - 1)], *vals]
        return [s, *vals]
    if cat == "negation":
        bools = [b for b in opts if b.boolean]
        o = r.choice(bools) if bools and r.random() < 0.6 else r.choice(opts)
        neg = "--no-" + max(o.longs or [o.name], key=len).lstrip("-")
        return [neg] + (["true"] if r.random() < 0.1 else [])
    if cat == "missing":
        o = r.choice(valued)
        return [o.name]  # the line builder puts another unit or the end after it
    if cat == "switch_word":
        sw = [o for o in opts if o.switch] or opts
        o = r.choice(sw)
        return [r.choice(o.strings), r.choice(["true", "1", "false", "yes", "0", "True"])]
    if cat == "stray":
        return [r.choice(["extra", "serve", "vllm", "8000", "facebook/opt-125m", "--", "-"])]
    if cat in ("json_inline", "json_dotted", "json_nonobject"):
        js = [o for o in opts if o.kind == "json"]
        if not js:
            return unit(r.choice(opts), r)
        o = r.choice(js)
        name = r.choice(o.strings)
        if cat == "json_nonobject":
            return [name, r.choice(["3", "abc", "", "[]", "null", "{}", '"x"', "1.5", "true"])]
        wrong = r.random() < 0.5
        if cat == "json_inline":
            return [name, json.dumps(json_object(o, r, wrong))]
        odd = wrong and r.random() < 0.4
        f = pick_field(o, r, odd)
        key = f["name"]
        val = field_value(f, r, wrong and not odd)
        if f["kind"] == "object" and isinstance(val, dict) and val and r.random() < 0.7:
            sub, subval = next(iter(val.items()))
            key, val = f"{key}.{sub}", subval
        long = max(o.longs or [name], key=len)
        if r.random() < 0.4:
            return [f"{long}.{key}={dotted_text(val)}"]
        return [f"{long}.{key}", dotted_text(val)]
    if cat == "O_forms":
        return r.choice([["-O3"], ["-O", "3"], ["-O0"], ["-O=2"], ["-O1"], ["-O", "4"], ["-Ofoo"],
                         ["-O.level=3"], ["-O.mode=3"], ["-O", '{"level": 3}'], ["-O", '{"mode": 2}'],
                         ["-O"], ["-O{}"], ["-O", "O2"]])
    if cat == "other_release":
        mine = {s for o in opts for s in o.strings}
        foreign = [o for o in others if not (set(o.strings) & mine)]
        if not foreign:
            return unit(r.choice(opts), r)
        o = r.choice(foreign)
        return unit(o, r)
    raise ValueError(cat)


def _respelled(o: Option, r: random.Random) -> list[str]:
    spell = r.choice(["underscore", "equals", "both"])
    words = unit(o, r, valid=r.random() < 0.8)
    name = words[0]
    if spell in ("underscore", "both") and name.startswith("--"):
        name = underscore(name)
    if spell in ("equals", "both") and len(words) == 2:
        return [f"{name}={words[1]}"]
    return [name, *words[1:]]


def model_words(r: random.Random) -> tuple[list[str], list[str]]:
    """(words before the units, words after them): the ``--model`` forms."""
    m = r.choice(MODELS)
    x = r.random()
    if x < 0.75:
        return [m], []
    if x < 0.82:
        return ["--model", m], []
    if x < 0.87:
        return [f"--model={m}"], []
    if x < 0.92:
        return [m, "--model", r.choice(MODELS)], []
    if x < 0.96:
        return [], [m]
    return [], []


def line(grammar: dict[str, Any], other_grammars: list[dict[str, Any]], release: str, seed: int, i: int,
         _cache: dict = {}) -> list[str]:
    key = id(grammar)
    if key not in _cache:
        mine = load(grammar)
        strings = {s for o in mine for s in o.strings}
        others, seen = [], set()
        for g in other_grammars:
            for o in load(g):
                if o.name not in strings and o.name not in seen:
                    seen.add(o.name)
                    others.append(o)
        _cache[key] = (mine, others)
    opts, others = _cache[key]
    r = random.Random(f"{seed}:grammar:{release}:{i}")
    head, tail = model_words(r)
    units = []
    for _ in range(r.choice([1, 1, 2, 2, 3, 4])):
        units.append(gen_unit(r.choice(CATEGORIES), opts, others, r))
    return head + [w for u in units for w in u] + tail
