"""The lint pipeline (docs/architecture.md): the engine (discovery, targeting, the one analysis of
a file, the fix loop), suppression, byte edits and atomic writes, the result cache, worker
processes, --add-noqa, baselines and the upgrade audit."""
