"""scrape/field_checks.py: the literal bounds of config-class fields and what their before/wrap
validators may change first, read from small class sources."""

from __future__ import annotations

import textwrap

import pytest

from vllm_lint.scrape.field_checks import field_constraints, field_rewrites, own_validation, validator_rewrites
from vllm_lint.scrape.pyresolve import Project
from vllm_lint.scrape.tree import DictTree

HEAD = """\
from typing import Annotated, Any, Optional
from pydantic import Field, PositiveInt, NonNegativeFloat, SkipValidation, field_validator, model_validator
from pydantic.dataclasses import dataclass
"""


def _cls(body: str, extra: str = ""):
    src = HEAD + extra + "\n@dataclass\nclass C:\n" + textwrap.indent(textwrap.dedent(body), "    ")
    p = Project(DictTree({"vllm/c.py": src.encode()}))
    return p.find_class("vllm.c", "C")


def _validator(decorator: str, body: str, params: str = "cls, v") -> str:
    return f"x: int = 0\n\n{decorator}\n@classmethod\ndef _v({params}):\n" + textwrap.indent(textwrap.dedent(body), "    ")


@pytest.mark.parametrize("annotation, default, want", [
    ("int", "Field(default=1, gt=0)", {"gt": 0}),
    ("float", "Field(default=0.5, ge=0.0, le=1)", {"ge": 0.0, "le": 1}),
    ("int", "Field(default=0, ge=-1)", {"ge": -1}),
    ("list[str] | None", "Field(default=None, min_length=1)", {"min_length": 1}),
    ("Annotated[int, Field(gt=0)]", "1", {"gt": 0}),
    ("Optional[Annotated[int, Field(lt=10)]]", "None", {"lt": 10}),
    ("PositiveInt", "1", {"gt": 0}),
    ("NonNegativeFloat | None", "None", {"ge": 0}),
    ("int", "Field(default=1, gt=LIMIT)", None),           # not a literal number: not judged
    ("int", "Field(default=1, description='x')", None),
    ("int", "1", None),
])
def test_literal_bounds(annotation, default, want):
    c = _cls(f"x: {annotation} = {default}\n", extra="LIMIT = 3\n")
    assert field_constraints(c.field("x")) == want


def test_positive_int_only_from_pydantic():
    c = _cls("x: PositiveInt = 1\n", extra="class PositiveInt(int):\n    pass\n")
    assert field_constraints(c.field("x")) is None


@pytest.mark.parametrize("annotation, want", [
    ("SkipValidation[int]", True), ("Annotated[int, BeforeValidator(f)]", True), ("QuantKeyField", True),
    ("int | None", False), ("Annotated[int, Field(gt=0)]", False),
])
def test_annotations_with_their_own_validation(annotation, want):
    c = _cls(f"x: {annotation} = None\n", extra="QuantKeyField = Annotated[int, GetPydanticSchema(f)]\n")
    assert own_validation(c.field("x")) is want


CASES = [
    # (decorator, body, params, kinds of value the validator may change first: True = any)
    ('@field_validator("x", mode="before")', "return v\n", "cls, v", frozenset()),
    ('@field_validator("x", mode="before")', "return v.lower()\n", "cls, v", True),
    ('@field_validator("x", mode="before")', """\
        if isinstance(v, str):
            return v.lower().replace("-", "_")
        return v
        """, "cls, v", {"str"}),
    ('@field_validator("x", mode="before")', """\
        if isinstance(v, str):
            v = v.replace(" ", "").split(",")
        assert all(isinstance(i, str) for i in v)
        return v
        """, "cls, v", {"str"}),
    ('@field_validator("x", mode="before")', """\
        if not isinstance(v, str):
            return v
        return parse(v)
        """, "cls, v, info", {"str"}),
    ('@field_validator("x", mode="before")', """\
        if isinstance(v, dict):
            return Sub(**v)
        return v
        """, "cls, v", {"object"}),
    ('@field_validator("x", mode="before")', """\
        if v is None:
            return v
        if not isinstance(v, dict):
            raise TypeError("a dict")
        for k, s in v.items():
            if not isinstance(s, str):
                raise ValueError(k)
        return v
        """, "cls, v", frozenset()),
    ('@field_validator("x", mode="before")', """\
        if isinstance(v, (int, float)):
            return str(v)
        return v
        """, "cls, v", {"int", "bool", "float"}),
    # wrap: only `handler(value)` leads to the type; returning the value skips it
    ('@field_validator("x", mode="wrap")', """\
        if v is None:
            return v
        return handler(v)
        """, "cls, v, handler", {"null"}),
    ('@field_validator("x", mode="wrap")', "return handler(v)\n", "cls, v, handler", frozenset()),
    ('@field_validator("x", mode="wrap")', "return v\n", "cls, v, handler", True),
    # a plain validator replaces the type; bodies not understood count as changing anything
    ('@field_validator("x", mode="plain")', "return v\n", "cls, v", True),
    ('@field_validator("x", mode="before")', "v.append(1)\nreturn v\n", "cls, v", True),
    ('@field_validator("x", mode="before")', "helper(v)\nreturn v\n", "cls, v", True),
    ('@field_validator("x", mode="before")', "v['a'] = 1\nreturn v\n", "cls, v", True),
    ('@field_validator("x", mode="before")', "with lock:\n    return v\n", "cls, v", True),
    # falling off the end returns None: only None is left as it was
    ('@field_validator("x", mode="before")', "if isinstance(v, str):\n    return v\n", "cls, v",
     {"bool", "int", "float", "list", "object"}),
    ('@field_validator("x", mode="before")', "logger.info('x %s', v)\nreturn v\n", "cls, v", frozenset()),
    # after validators change nothing the type sees
    ('@field_validator("x")', "return v * 2\n", "cls, v", frozenset()),
    ('@field_validator("y", mode="before")', "return v.lower()\n", "cls, v", frozenset()),
    ('@field_validator("*", mode="before")', "return v.lower()\n", "cls, v", True),
]


@pytest.mark.parametrize("decorator, body, params, want", CASES)
def test_what_a_field_validator_may_change(decorator, body, params, want):
    c = _cls(_validator(decorator, body, params))
    got = field_rewrites(validator_rewrites(c), "x")
    if want is True:
        assert got is True or got == frozenset({"null", "bool", "int", "float", "str", "list", "object"})
    else:
        assert got == frozenset(want)


@pytest.mark.parametrize("body, pure", [
    ("return data\n", True),
    ("""\
     values = data.kwargs if isinstance(data, ArgsKwargs) else data
     if not isinstance(values, dict):
         return data
     if "normalize" in values:
         raise ValueError("removed")
     check_task(values.get("task"))
     return data
     """, True),
    ("data['x'] = 1\nreturn data\n", False),
    ("data.pop('x', None)\nreturn data\n", False),
    ("return {**data, 'x': 1}\n", False),
])
def test_model_validators_that_only_check(body, pure):
    src = f'x: int = 0\n\n@model_validator(mode="before")\n@classmethod\ndef _m(cls, data):\n' \
          + textwrap.indent(textwrap.dedent(body), "    ")
    got = validator_rewrites(_cls(src))
    assert (got is not None) is pure
    if pure:
        assert field_rewrites(got, "x") == frozenset()
    else:
        assert field_rewrites(got, "x") is True


def test_validators_of_a_base_class_count():
    src = HEAD + textwrap.dedent('''
        @dataclass
        class Base:
            x: int = 0

            @field_validator("x", mode="before")
            @classmethod
            def _v(cls, v):
                if isinstance(v, str):
                    return int(v, 0)
                return v

        @dataclass
        class C(Base):
            y: int = 0
        ''')
    c = Project(DictTree({"vllm/c.py": src.encode()})).find_class("vllm.c", "C")
    got = validator_rewrites(c)
    assert field_rewrites(got, "x") == frozenset({"str"}) and field_rewrites(got, "y") == frozenset()


ENUMS = """
import enum

class Mode(enum.Enum):
    NONE = 0
    FULL = 1

class Grown(enum.Enum):
    A = "a"

    @classmethod
    def register(cls, name):
        cls._member_map_[name] = object()
"""


@pytest.mark.parametrize("body, want", [
    ('if isinstance(v, str):\n    return Mode[v.upper()]\nreturn v\n', {"names": ["NONE", "FULL"], "case": "upper"}),
    ('"""Parse a name."""\nif isinstance(v, str):\n    if v.lower() == "auto":\n        return None\n'
     '    return Mode[v.upper()]\nreturn v\n', {"names": ["NONE", "FULL"], "case": "upper", "also": ["auto"]}),
    ('if isinstance(v, str):\n    return Grown[v.upper()]\nreturn v\n',
     {"names": ["A"], "case": "upper", "extensible": True}),
    # not the shape: no case folding, another test, more statements, not an enum
    ('if isinstance(v, str):\n    return Mode[v]\nreturn v\n', None),
    ('if isinstance(v, int):\n    return Mode[v.upper()]\nreturn v\n', None),
    ('if isinstance(v, str):\n    log(v)\n    return Mode[v.upper()]\nreturn v\n', None),
    ('if isinstance(v, str):\n    return NOT_AN_ENUM[v.upper()]\nreturn v\n', None),
])
def test_enum_lookups(body, want):
    from vllm_lint.scrape.field_checks import enum_lookups

    src = _validator('@field_validator("x", mode="before")', body)
    c = _cls(src, extra=ENUMS + "\nNOT_AN_ENUM = {}\n")
    assert enum_lookups(c).get("x") == want


def test_after_validators_of_a_class_are_read_as_checks():
    from vllm_lint.scrape.serve_checks import class_checks

    src = HEAD + textwrap.dedent('''
        @dataclass
        class C:
            kind: str = "a"
            path: str = ""
            count: int = 0
            filled: int | None = None

            def __post_init__(self):
                if self.count < 0:
                    raise ValueError("x")
                if self.filled is None:
                    self.filled = 3

            @model_validator(mode="after")
            def _check(self):
                where = self.path
                if self.kind == "b" and not where:
                    raise ValueError("y")
                if self.filled > 9:
                    raise ValueError("z")   # filled is set by __post_init__: not the launch's
                self.path = "/" + where
                if self.path == "/":
                    raise ValueError("w")   # after the method set it: not the launch's
                return self

            def helper(self):
                if self.kind == "c":
                    raise ValueError("not run by validation")
        ''')
    p = Project(DictTree({"vllm/c.py": src.encode()}))
    c = p.find_class("vllm.c", "C")
    got = [[(t["dest"], t["test"], t.get("value")) for t in ch["when"]] for ch in class_checks(p, c, ["kind", "path", "count", "filled"])]
    assert got == [[("count", "<", 0)], [("kind", "==", "b"), ("path", "unset", None)]]
