"""The flag-history website: ``vllm-lint site build OUTDIR``.

``model`` gathers what every page says from the flag database (through ``surface.db`` and
``surface.timeline``, never the files' layout), ``svg`` draws the timelines, ``pages`` writes the
pages there are hundreds of (options, spellings, variables, their lists, a comparison's sections)
in Python inside ``base.html``'s frame, ``build`` renders the other Jinja2 templates of
``templates/``, copies ``static/`` and writes the tree; the click command is ``cli.site_command``.
Only the ``site`` command imports this package (Jinja2 and markdown-it-py are loaded there).
"""
