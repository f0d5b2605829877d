"""Front-ends: one module per format family, each turning a file's bytes into launches.

Every front-end module exposes::

    FORMAT: str                                   # "shell", "python", "dockerfile", "yaml", "markdown"
    def might_contain_launch(data: bytes) -> bool  # cheap byte pre-filter, no parsing
    def extract(data: bytes, path: str) -> Extraction   # raises launch.ParseError on bad input

Front-ends never import rules and never look at a flag database. They are imported lazily by
``vllm_lint.engine`` (a Python file pays for libcst only when its bytes pass the pre-filter).
"""
