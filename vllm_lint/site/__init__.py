"""The flag-history website: ``vllm-lint site build OUTDIR``.

``model`` gathers what every page says from the flag database (through ``surface.db`` and
``surface.timeline``, never the files' layout), ``svg`` draws the timelines, ``pages`` writes every
page in Python (each page's ``main`` block inside the frame all pages share, ``pages.Frame``),
``build`` copies ``static/``, renders the rule docs (markdown-it-py, cached) and writes the tree;
the click command is ``cli.site_command``. Only the ``site`` command imports this package.
"""
