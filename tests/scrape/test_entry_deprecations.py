"""deprecated_entries over synthetic source trees: which ``python -m`` entrypoints a release
deprecates (a ``DeprecationWarning`` in the module's ``__main__`` block), and which shapes do not count."""

from __future__ import annotations

import textwrap

import pytest

from vllm_lint.scrape.entry_deprecations import deprecated_entries
from vllm_lint.scrape.tree import DictTree

API = "vllm/entrypoints/openai/api_server.py"


def entries(source: str, path: str = API) -> list[str]:
    return deprecated_entries(DictTree({path: textwrap.dedent(source).encode()}))


def test_main_block_deprecation_warning_is_recorded():
    assert entries("""
        import warnings

        def main(): ...

        if __name__ == "__main__":
            warnings.warn("use the CLI", DeprecationWarning, stacklevel=1)
            main()
        """) == ["openai.api_server"]


def test_keyword_category_and_bare_warn_count():
    assert entries("""
        from warnings import warn
        if "__main__" == __name__:
            warn("use the CLI", category=DeprecationWarning)
        """) == ["openai.api_server"]


@pytest.mark.parametrize("source", [
    # a module-level warning is about importing the module, not running it
    'import warnings\nwarnings.warn("moved", DeprecationWarning)\nif __name__ == "__main__":\n    main()\n',
    # another category
    'import warnings\nif __name__ == "__main__":\n    warnings.warn("x", FutureWarning)\n',
    # a warning inside a function the block calls is not read (only the block itself)
    'import warnings\ndef main():\n    warnings.warn("x", DeprecationWarning)\nif __name__ == "__main__":\n    main()\n',
    # no __main__ block at all
    'def main(): ...\n',
    # source that does not parse
    'if __name__ == "__main__":\n    warnings.warn(\n',
])
def test_other_shapes_do_not_count(source):
    assert entries(source) == []


def test_the_demo_server_module_has_its_own_entry():
    assert entries('import warnings\nif __name__ == "__main__":\n    warnings.warn("x", DeprecationWarning)\n',
                   path="vllm/entrypoints/api_server.py") == ["api_server"]
