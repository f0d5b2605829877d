"""Front-ends: one unit per format, each turning a file's bytes into launches.

The registry of formats and the protocol each format's module implements are in
``vllm_lint.frontends.base`` (adding a format: ``docs/architecture.md``). Front-ends never import
rules, ``argv`` or the flag database; each is imported at first use, when a file's bytes pass its
pre-filter.
"""
