"""The flag-history website: ``vllm-lint site build OUTDIR``.

``model`` gathers what every page says from the flag database (through ``surface.db`` and
``surface.timeline``, never the files' layout), ``svg`` draws the timelines, ``build`` renders the
Jinja2 templates of ``templates/`` and copies ``static/``; the click command is ``cli.site_command``. Only
the ``site`` command imports this package (Jinja2 and markdown-it-py are loaded there).
"""
