"""The command line: the console entry point and its fast path (``program``), the lint
command's options and job (``lint_command``), the click application (``app``) and the other
commands (``*_command``). Nothing is imported here, so the fast path loads no click."""
