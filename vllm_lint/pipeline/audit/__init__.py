"""The version-upgrade audit (``vllm-lint audit``): what moving a repository's vLLM launches from
release A to release B breaks, deprecates and silently changes, what ``--fix --target-version B``
would rewrite, what it cannot, and whether the rewritten launches still mean the same thing.

Pure functions over the flag database and the engine's front-ends; nothing here writes a file.
``audit_paths`` returns an ``AuditReport`` (data classes); ``render_text`` / ``render_markdown``
/ ``AuditReport.to_json`` format it (``docs/audit.md`` documents the JSON schema).

The package, bottom up: ``model`` (the report's data classes, nothing else imported), ``releases``
(the database's walk between two releases), the three comparers of a launch at A and at B
(``breaks``: what B refuses and what is deprecated on the way; ``drift``: the defaults the launch
does not set; ``semantic``: does the fixed launch mean what the original did), ``auditor`` (the
conductor: one lint check at B per file, release A per launch, the comparers) and ``render`` (text
and Markdown, from the model alone).

Vocabulary, per launch:

* **break**: an option or variable the launch sets that release B rejects or ignores (removed,
  renamed, an abbreviation that became ambiguous, a value that no longer parses, a switch that
  now takes a value or the reverse, an environment variable no longer read).
* **deprecated**: an option or variable the launch sets that some release in ``[A, B]`` marks
  deprecated and B still accepts.
* **drift**: an option the launch does not set whose default differs between A and B (constant
  defaults compared exactly; a default computed at run time on one side is "changed, not
  statically known"); options that exist only on one side are not drift, except an option
  renamed (or moved into a JSON config) whose successor carries a different default.
"""

from .auditor import Auditor, audit_paths
from .model import (SCHEMA, AuditReport, AuditUsageError, FileAudit, Finding, LaunchAudit, NoOrigin, Remaining,
                    SemanticDiff)
from .render import render_markdown, render_text

__all__ = ["SCHEMA", "AuditReport", "AuditUsageError", "Auditor", "FileAudit", "Finding", "LaunchAudit", "NoOrigin",
           "Remaining", "SemanticDiff", "audit_paths", "render_markdown", "render_text"]
