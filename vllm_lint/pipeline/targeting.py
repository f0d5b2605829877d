"""Targeting: the release each launch of a file is checked against (``Targeting.choose``), from
everything the repository says, in order of how directly it applies:

1. ``-t`` / ``target-version``;
2. the launch's own version hints, then the file's (an image tag, a ``FROM``, a ``pip install
   vllm==``, a Helm tag's default, a Markdown block's prose), read by
   ``knowledge.image_tags.read_hint`` (vendor tag schemes: NGC, Triton, Neuron, ROCm, Red Hat, AWS;
   nightly and dated builds); then the launch's own image when it is a vendor's that holds vLLM
   without being named as vLLM's (``read_image``: Triton, Neuron, Red Hat OpenShift AI, Gaudi), and
   a fork of vLLM the file builds (``knowledge.forks.fork_builds``: the upstream release its tag
   names, ``v0.6.6.post1+Gaudi-1.20.0``);
3. the files around it (``pipeline.surroundings``): a Dockerfile, compose file, Kubernetes
   manifest, Truss config, env file, GitHub action, chart ``appVersion`` or kustomization that runs
   it or holds its image, the scripts of the repository that run it after installing a release
   (``pipeline.callers``: ``pip install vllm==0.8.4`` then ``bash model_scripts/x.sh``), the model
   server the file names as its repository configures it (``pipeline.repository``: ``engine:`` /
   ``runtime:`` / ``backendName:``), a sibling chart's model server image, then requirement and
   lock files up to the repository root (:meth:`Targeting.pin_for`), then the release a server's
   log kept beside it says ran (``nohup.out``: ``vLLM API server version 0.9.1``), then the one release the
   whole repository names (weak; several name none, said so; not for a file installing a vLLM of
   its own);
4. a version the file states in words before the launch, in a comment (``# tested with vLLM
   0.11.0``; not for documentation formats, whose prose the Markdown reader reads itself);
5. the repository's own install instruction in its root README (``pip install vllm==0.8.5``),
   else the one release its prose states (``using vLLM v0.17.0``), the weakest
   (``Surroundings.readme_for``);
6. else the newest release in the database (:data:`NEWEST_SOURCE`), with the reason the
   repository gave none, if it gave one.

An image or fork whose vLLM release is not published (a vendor's tag missing from its table, a
fork built at a branch or commit) and a build dated between two releases are "between"
(``Choice.kind``): checked at both ends of the releases they may run (``low``, ``high``), and only
the findings that hold at both are raised (``pipeline.unknown_release``); for an unknown release a
comment before the launch stating it still decides.
A source naming a release newer than the database is checked against the newest and says so
(``Choice.kind`` "newer": VL004 and the summary); a release PyPI never had (``v0.8.6``) is the
newest of its series, said in the reason. A ``--config`` file is forced to the release of the
launch naming it by the engine (``Linter.analyse``'s ``forced``). For a launch that names no
release, :func:`accepted_range` says which releases accept it as written."""

from __future__ import annotations

import os
from bisect import bisect_left

from .. import inputs
from ..frontends.base import builds_image_by_name
from ..fsutil import AnyPath, TooLarge, read_regular, real_dir, watch, watching
from ..images import image_is_vllm, version_from_image
from ..knowledge.image_tags import HintReading, read_hint, read_image
from ..launch import Span, VersionHint
from ..record import Record, lazy_re
from ..settings import Settings
from ..surface.db import Database

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

    from .callers import Callers
    from .plugin_evidence import Found, PluginSurroundings
    from .repository import RepositorySurvey
    from .surroundings import Named, Surroundings

PIN_FILE_BYTES = 10 * 1024 * 1024  # a larger requirements file or pyproject.toml is not read for a pin

#: ``Targeting.target_for``'s fallback when no release is named (no -t, hint or pin)
NEWEST_SOURCE = "newest release in the database"

#: how many lines before a launch a comment stating its release may be
WORDS_LINES = 40


#: the module every Triton Python backend model imports (``repository.TRITON_MODEL_MARK``: that
#: module imported for a survey only, and no import statement run per Python file)
_TRITON_MODEL_MARK = b"triton_python_backend_utils"

# a file that builds vLLM from a source tree of its own: a clone of a vLLM repository (vLLM's or a
# fork's), a pip install from git
_OWN_SOURCE = lazy_re(r"(?im)^[^#\n]*(?:\bgit[ \t]+clone\b[^\n]*?/[\w.-]*vllm[\w.-]*(?:\.git)?(?![\w-])|"
                      r"\b(?:pip3?|uv)\b[^\n]*\binstall\b[^\n]*git\+\S*vllm)")


# a Dockerfile's base, or an ARG default naming one, that names vllm (``FROM vllm-gb10:pr41834``,
# ``ARG BASE_IMAGE=myorg/vllm-custom:dev``): read against the recognised vLLM images with a release
_VLLMISH_BASE = lazy_re(r"(?im)^[ \t]*(?:FROM[ \t]+(?:--platform=\S+[ \t]+)?|ARG[ \t]+\w+[ \t]*=[ \t]*)(\S*vllm[^\s]*)")


# a SkyPilot task's uploads: the local sources of `file_mounts:` (a value, or a mapping's `source:`) and `workdir:`
_FILE_MOUNTS = lazy_re(r"(?m)^file_mounts:[ \t]*\r?\n((?:(?:[ \t]+[^\n]*)?\r?\n)+)")
_MOUNT_SOURCE = lazy_re(r"""(?m)^[ \t]+(?:["'][^"'\n]+["']|[^:#\s][^:\n]*)[ \t]*:[ \t]*["']?([^\s"'#]+)""")
_WORKDIR = lazy_re(r"""(?m)^workdir:[ \t]*["']?([^\s"'#{]+)""")


class Choice(Record):
    """How one launch's release was chosen: ``release`` (a release of the database), ``why``
    (--verbose's reason), ``kind``: "explicit" (-t), "named" (a source names it), "newer" (a
    source names ``named``, newer than the database: checked against the newest), "build" (a
    nightly or floating tag: the newest), "between" (an image or fork whose release is not
    published, or a build dated between two releases: ``low`` the oldest it may be, None for the
    database's oldest, ``high`` the newest, None for ``release``), "default" (nothing names one:
    the newest); ``hint``: the version hint of this file that decided it (its span: where VL004
    reports), if any."""

    __slots__ = ("release", "why", "kind", "named", "hint", "weak", "low", "high")

    def __init__(self, release: str, why: str, kind: str, named: Optional[str] = None,
                 hint: Optional[VersionHint] = None) -> None:
        self.release = release
        self.why = why
        self.kind = kind
        self.named = named
        self.hint = hint
        self.weak = False  # the repository's README: after a release the file's own comments state
        self.low: Optional[str] = None  # "between": the oldest release it may be (None: the database's oldest)
        self.high: Optional[str] = None  # "between": the newest (None: ``release``)


class Targeting:
    """How one run chooses releases: ``explicit`` is the release ``-t`` names (resolved in the
    database), else None; the files around a launch are read once per directory."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.explicit: Optional[str] = db.resolve_version(settings.target_version) if settings.target_version else None
        self._surroundings: Optional[Surroundings] = None  # (``surroundings``: made when first asked)
        self._callers: Optional[Callers] = None  # (``callers``: made for the first script asked about)
        self._repository: Optional[RepositorySurvey] = None  # (``repository``: made for the first survey)
        self._plugins: Optional[PluginSurroundings] = None  # (``plugins``: made when a folder is first asked)
        # the linter reads the files of the folders it lints: the surroundings read ahead for it
        # (``Surroundings.reads_ahead``; ``read_ahead``, called by ``Linter.lint_file``)
        self.reads_ahead = False
        self._repository_choices: dict[str, tuple[Optional[Choice], Optional[str]]] = {}
        self._notes: dict[str, str] = {}  # why the repository chose nothing, per file or folder
        self._around: dict[str, tuple[Optional[Choice], list[tuple[str, str]]]] = {}  # (the files that decided it)
        self._folder_choices: dict[str, tuple[Optional[Choice], Optional[tuple[str, str]]]] = {}  # (_folder_choice)
        self._readings: dict[tuple[str, Optional[str]], HintReading] = {}  # _read_hint's memo
        self._real_dirs: dict[str, str] = {}  # fsutil.real_dir's memo
        # the last file asked about: (its path, real folder, name, key) (``_where``)
        self._where_memo: Optional[tuple[AnyPath, str, str, str]] = None
        # the file being linted, when its linter read it as a regular file (no other test of it: a
        # stat per file, twice); None: asked of the file system (``_is_file``)
        self.regular: Optional[str] = None
        self._fork_memo: Optional[tuple[bytes, list]] = None  # (a file's bytes, its fork builds at byte offsets)
        self._lines_memo: Optional[tuple[bytes, list[int], dict]] = None  # (a file's bytes, its lines naming vllm: ``_stated``)
        self._built_memo: Optional[tuple[bytes, str, Optional[Named]]] = None  # (a file's bytes, its folder, the image it builds)
        # with a result cache: the stat signature of every file and folder the choices of this
        # run read (``fsutil.watching``; path -> signature), the run's survey for the cache
        self.watched: Optional[dict[str, Optional[list[int]]]] = None

    @property
    def callers(self) -> Callers:
        """The scripts of the repositories that run a script (``pipeline.callers``), imported and
        made when a script is first asked about."""
        if self._callers is None:
            from .callers import Callers

            self._callers = Callers(self.surroundings)
        return self._callers

    @property
    def surroundings(self) -> Surroundings:
        """The files around a launch (``pipeline.surroundings``), imported and made when a launch's
        release is first looked for around it (a launch naming its release never is)."""
        s = self._surroundings
        if s is None:
            from .surroundings import PLUGIN_WORDS, Surroundings

            s = self._surroundings = Surroundings(PLUGIN_WORDS)
            s.reads_ahead = self.reads_ahead
        return s

    def read_ahead(self) -> None:
        """From now on the surroundings read ahead for the linter (``Surroundings.reads_ahead``)."""
        if not self.reads_ahead:
            self.reads_ahead = True
            if self._surroundings is not None:
                self._surroundings.reads_ahead = True

    def take_ahead(self, path: str) -> Optional[bytes]:
        """The bytes of the walked file at ``path`` when the release finding read them ahead for its
        folder's runners (``Surroundings.take_ahead``: once, the folder read last only), else None;
        the surroundings are not made for it."""
        s = self._surroundings
        if s is None or not s.ahead:
            return None
        return s.take_ahead(self.real_parent(path), os.path.basename(path))

    @property
    def repository(self) -> RepositorySurvey:
        """What the whole repository says (``pipeline.repository``), imported and made when a
        launch's release is first looked for there (a launch naming its release never is)."""
        if self._repository is None:
            from .repository import RepositorySurvey

            self._repository = RepositorySurvey(self.surroundings, self._names)
        return self._repository

    @property
    def plugins(self) -> PluginSurroundings:
        """The plugin releases the folders around a file name (``pipeline.plugin_evidence``),
        imported and made when a folder's are first asked for (a launch naming its release never does)."""
        if self._plugins is None:
            from .plugin_evidence import PluginSurroundings

            self._plugins = PluginSurroundings(self.surroundings.root_of, lambda d: self.surroundings.folder(d).names,
                                               self.surroundings.wordless)
        return self._plugins

    # -- the files around a launch
    def pin_for(self, path: AnyPath) -> Optional[tuple[str, str]]:
        """(release, why) the files around the file at ``path`` name (runners, then pins), or
        None: part of a cached result's verdict (``engine._verdict``)."""
        if self.watched is None:
            c = self.around(path)
        else:
            before = watching(self.watched)
            try:
                c = self.around(path)
            finally:
                watching(before)
        return (c.release, c.why) if c is not None else None

    def index_callers(self, path: AnyPath) -> None:
        """Index the callers of the repository holding the file at ``path`` (``Callers.index``),
        what it reads recorded as the choices' reads are (``watched``)."""
        before = watching(self.watched) if self.watched is not None else None
        try:
            self.callers.index(self.real_parent(path))
        finally:
            if self.watched is not None:
                watching(before)

    def around(self, path: AnyPath) -> Optional[Choice]:
        """The choice the files around the file at ``path`` make (``surroundings``), once per file."""
        _path, directory, name, key = self._where(path)
        if key not in self._around:
            c, read = None, None
            named = self.surroundings.runner_for(directory, name)
            if named is not None:
                c, read = self._from_named(named), named.read
            if c is None and name.endswith(self.surroundings.called_suffixes):  # (no other file is called: callers not imported)
                caller = self.callers.caller_for(directory, name)
                if caller is not None:
                    c, read = self._from_named(caller), caller.read
            if c is None:
                own = self.surroundings.own_chart_for(directory)
                if own is not None:
                    c, read = self._from_named(own), own.read
            reads: list[tuple[str, str]] = []
            if c is None:
                c, reads = self._linked(path, directory)
            if c is None:  # (what the folder says, the same for each of its files)
                got = self._folder_choices.get(directory)
                if got is None:
                    got = self._folder_choices[directory] = self._folder_choice(directory)
                c = got[0]
                if got[1] is not None:
                    read = got[1]
            on_disk = c is None and self._is_file(path)
            if on_disk:
                c, reads = self._repository_release(directory)
                if c is not None and self._installs_its_own(path):  # (read only when it would matter)
                    c, reads = None, []
                    self._notes[key] = ("the file installs a vLLM of its own (unpinned, from a source tree or its own image): "
                                        "no release of its repository applies")
            if c is None and on_disk:  # (not for stdin: a snippet is no file of the repository)
                readme = self.surroundings.readme_for(directory)
                if readme is not None:
                    c, read = self._from_named(readme), readme.read
                    if c is not None:
                        c.weak = True
            self._around[key] = (c, ([read] if read is not None else []) + reads if c is not None else [])
        c, reads = self._around[key]
        if reads:  # the files that decided it, in this analysis's record (vllm_lint.inputs)
            inputs.replay(reads)
        return c

    def _folder_choice(self, directory: str) -> tuple[Optional[Choice], Optional[tuple[str, str]]]:
        """(choice, the file read that last named something) of what the real folder ``directory``
        and those around it say of every file in it, in order: a sibling chart's model server
        image, the pins up to the repository root, a plugin release pinned or run around it (no
        vLLM release named there), the release a server's log beside it says ran. Once per folder
        for the run (``around``: the files of a folder asked each of them in turn)."""
        read = None
        s = self.surroundings
        for find, choose in ((s.sibling_chart_for, self._from_named), (s.pin_for, self._from_named),
                             (self.plugins.for_dir, self._from_plugin), (s.log_for, self._from_named)):
            found = find(directory)
            if found is not None:
                c, read = choose(found), found.read
                if c is not None:
                    return c, read
        return None, read

    # -- the whole repository (pipeline.repository)
    def _linked(self, path: AnyPath, directory: str) -> tuple[Optional[Choice], list[tuple[str, str]]]:
        """The release of the model server the file names (``engine: VLLM``, ``runtime: name``,
        ``backendName: name``; a Triton Python backend model: the Triton server of its model
        repository) as the repository configures it elsewhere; a note when they disagree."""
        triton = str(path).endswith(".py")
        if not (triton or str(path).endswith((".yaml", ".yml", ".tpl"))):  # (catalogs and resources: YAML)
            return None, []
        root = self.surroundings.root_of(directory)
        if root is None or not self._is_file(path):
            return None, []
        try:
            data = read_regular(str(path), PIN_FILE_BYTES)
        except (OSError, TooLarge):
            return None, []
        if triton and _TRITON_MODEL_MARK not in data:
            return None, []
        named, note = self.repository.triton(root, directory) if triton else self.repository.linked(root, data)
        if note is not None:
            self._notes[self._key(path)] = note
        if named is None:
            return None, []
        c = self._from_named(named)
        return c, ([named.read] if c is not None and named.read else [])

    def _installs_its_own(self, path: AnyPath) -> bool:
        """Whether the file installs a vLLM of its own: with no version (``pip install vllm``: the
        newest), from a source tree (``git clone .../vllm``, ``pip install git+.../vllm-fork``), or, for
        a Dockerfile, from a vLLM image of its own build (``FROM vllm-gb10:pr41834``): not another
        release its repository names elsewhere."""
        try:
            data = read_regular(str(path), PIN_FILE_BYTES)
        except (OSError, TooLarge):
            return False
        if b"vllm" not in data.lower():
            return False
        text = data.decode("utf-8", errors="replace").replace("\r\n", "\n")
        if _OWN_SOURCE.search(text) or self.surroundings.unpinned_install(text):
            return True
        if builds_image_by_name(os.path.basename(str(path))):  # (FROM a vLLM image of its own build)
            for m in _VLLMISH_BASE.finditer(text):
                image = m.group(1).strip("\"'")
                if not (image_is_vllm(image) and version_from_image(image) not in (None, "latest")):
                    return True
        return False

    def _repository_release(self, directory: str) -> tuple[Optional[Choice], list[tuple[str, str]]]:
        """The one release every vLLM image (or pin) of the repository names, as a weak source (a
        comment of the file stating one comes first); a note when they name several, or when the
        repository is too large to survey."""
        root = self.surroundings.root_of(directory)
        if root is None:
            return None, []
        if root in self._repository_choices:
            c, note = self._repository_choices[root]
        else:
            c, note = self._one_release(root)
            self._repository_choices[root] = (c, note)
        if note is not None:
            self._notes[directory] = note
        if c is None:
            return None, []
        c = Choice(c.release, c.why, c.kind, c.named, c.hint)
        c.weak = True
        return c, self.repository.reads(root)

    def _one_release(self, root: str) -> tuple[Optional[Choice], Optional[str]]:
        mentions, truncated = self.repository.mentions(root)
        if truncated:
            from .repository import MAX_FILES, MAX_FOLDERS

            return None, (f"the repository is larger than a survey reads ({MAX_FOLDERS} folders or {MAX_FILES} "
                          "files): no release read from it")
        releases: dict[Any, Any] = {}  # what it names -> its first mention
        for m in mentions:
            releases.setdefault(self._names(m), m)
        if not releases:
            return None, None
        if len(releases) > 1:
            shown = "; ".join(f"{m.where} {_shown(m)}" for m in list(releases.values())[:3])
            return None, f"the repository names several vLLM releases ({shown}): none chosen"
        m = next(iter(releases.values()))
        r = self._read_hint(m.text, m.image)
        why = f"repository: {m.where} {_shown(m)} (the one release the repository names; nothing nearer names one)"
        if r.status == "build":  # (a floating tag, a nightly or an unpinned install: the newest)
            return Choice(r.version, f"{why}: {r.note or NEWEST_SOURCE}", "build"), None
        return self._from_reading(r, why, m.text), None

    def _names(self, m: Any) -> Any:
        """What a repository's mention names, read against the database: a release, "build" (a floating
        or nightly tag, an unpinned install), or the tag itself when no release is read from it."""
        r = self._read_hint(m.text, m.image)
        if r.status == "build":
            return "build"
        if r.status in ("release", "series", "newer", "older"):
            return r.named or r.version
        return f"{m.image or m.text} ({r.status})"

    def note_for(self, path: AnyPath) -> Optional[str]:
        """Why the repository gave no release for the file at ``path`` (several named, too large), if it said."""
        _path, directory, _name, key = self._where(path)
        return self._notes.get(key) or self._notes.get(directory)

    def _is_file(self, path: AnyPath) -> bool:
        """``os.path.isfile(str(path))``, known without a stat for the file its linter read as a
        regular file (``regular``)."""
        where = str(path)
        return where == self.regular or os.path.isfile(where)

    def _key(self, path: AnyPath) -> str:
        return self._where(path)[3]

    def _where(self, path: AnyPath) -> tuple[AnyPath, str, str, str]:
        """``(path, real_parent(path), its name, _key(path))``, once per file: every launch of a
        file asks for them (the release choice, its notes, its plugin pin), ~3 path operations
        each time."""
        w = self._where_memo
        if w is None or w[0] is not path:
            directory = self.real_parent(path)
            name = os.path.basename(str(path))
            w = self._where_memo = (path, directory, name, directory + "\0" + name)
        return w

    def _read_hint(self, text: str, image: Optional[str] = None) -> HintReading:
        """``image_tags.read_hint`` against this run's database, once per (text, image): a tree's
        launches name the same few tags and pins again and again (the readings are not changed by
        their readers)."""
        key = (text, image)
        got = self._readings.get(key)
        if got is None:
            got = self._readings[key] = read_hint(self.db, text, image)
        return got

    def _from_named(self, named: Named) -> Optional[Choice]:
        if named.spec:
            return self._from_spec(named)
        r = self._read_hint(named.text, named.image)
        if r.status == "unmapped":  # (a vendor's version without a row: its release is unknown, as for a hint)
            return Choice(self.db.newest, f"{named.why} ({r.note})", "between")
        return self._from_reading(r, named.why, named.text)

    def _from_plugin(self, found: Found) -> Optional[Choice]:
        """The vLLM release a plugin release targets (``knowledge.plugin_targets``), or None."""
        from ..knowledge.plugin_targets import target_of

        t = target_of(self.db, found.dist, found.version)
        if t is None:
            return None
        return self._from_reading(t.reading, f"{found.dist} {found.version} ({found.where}) {t.says}",
                                  t.reading.named or "")

    def _from_spec(self, named: Named) -> Optional[Choice]:
        from packaging.specifiers import InvalidSpecifier, SpecifierSet

        try:
            spec = SpecifierSet(named.text)
        except InvalidSpecifier:
            return None
        allowed = [v for v in self.db.versions if spec.contains(v, prereleases=True)]
        if not allowed:
            return None
        return Choice(allowed[-1], f"{named.why}: the newest release it allows, {allowed[-1]}", "named")

    def real_parent(self, path: AnyPath) -> str:
        """``str(path.parent.resolve())``, once per directory (``fsutil.real_dir``; the memo lives as
        long as this object). ``str(path.parent)`` without a path object."""
        return real_dir(os.path.dirname(str(path)) or ".", self._real_dirs)

    # -- one launch
    def target_for(self, path: AnyPath, hints: list[VersionHint]) -> tuple[str, str]:
        """(release, why) for a launch of the file at ``path`` with version ``hints`` (the launch's
        own first, then the file's): ``choose`` without the file's words."""
        c = self.choose(path, hints)
        return c.release, c.why

    def choose(self, path: AnyPath, hints: list[VersionHint], data: Optional[bytes] = None,
               at: Optional[int] = None, image: Optional[str] = None, source: Optional[bytes] = None) -> Choice:
        """The release for a launch of the file at ``path`` (module docstring): ``hints`` the
        launch's own then the file's; ``data``, the file's bytes and ``at``, the launch's offset,
        for a version stated in a comment before it (None: not read); ``image``, the image the
        launch runs in, when known; ``source``, the file's bytes for a fork it builds (a guide's too,
        whose words ``data`` leaves to its front-end), else ``data``. With ``watched``, what it
        reads is recorded there."""
        if self.watched is None:
            return self._choose(path, hints, data, at, image, source)
        before = watching(self.watched)
        try:
            return self._choose(path, hints, data, at, image, source)
        finally:
            watching(before)

    def _choose(self, path: AnyPath, hints: list[VersionHint], data: Optional[bytes], at: Optional[int],
                image: Optional[str], source: Optional[bytes]) -> Choice:
        if self.explicit:
            return Choice(self.explicit, self.settings.target_origin or "--target-version", "explicit")
        unmapped: list[str] = []
        unknown: Optional[Choice] = None
        for h in hints:
            r = self._read_hint(h.version, h.image)
            c = self._from_reading(r, f"{h.source} {h.version.strip()}", h.version.strip(), h)
            if c is not None:
                if not (c.kind == "between" and c.named is None):  # (an unknown release: a later source may name it)
                    return c
                unknown = unknown or c
            if r.status == "unmapped":
                unmapped.append(r.note)
        if unknown is None and image and "$(" in image and data is not None:
            c = self._kustomized(path, data, image)  # (`image: $(vllm-image)`: a kustomization sets it)
            if c is not None:
                if not (c.kind == "between" and c.named is None):
                    return c
                unknown = c
        if unknown is None and image:
            r = read_image(self.db, image)
            if r is not None:
                c = self._from_reading(r, f"image {image}", image)
                if c is not None and not (c.kind == "between" and c.named is None):
                    return c
                unknown = c
        if unknown is None and unmapped:
            unknown = Choice(self.db.newest, f"{'; '.join(unmapped)}", "between")
        source = source if source is not None else data
        if unknown is None and source is not None and at is not None:
            built = self._fork_built(source, at)
            if built is not None and not (built.kind == "between" and built.named is None):
                return built
            unknown = built
        if unknown is not None:  # (a comment stating the release still says which it is)
            stated = self._stated(data, at) if data is not None and at is not None else None
            return stated or unknown
        c = None
        if at is not None and _may_name_plugin(image, source, self.surroundings.words):  # the plugin release the launch runs in or its
            from .plugin_evidence import own as own_plugin  # file pins (vllm-ascend==0.9.1)

            found = own_plugin(image, source, self._where(path)[2])
            c = self._from_plugin(found) if found is not None else None
        if c is None and data is not None and (b"docker" in data or b"podman" in data or b"buildah" in data) and b" build" in data:
            built = self._built(path, data)
            if built is not None:
                c = self._from_named(built)
                if c is not None and built.read is not None:
                    inputs.replay([built.read])
            if self.watched is not None:  # (what the build reads: whichever it found)
                inputs.replay([inputs.WHOLE_SURVEY])
        if c is None and data is not None and b"file_mounts:" in data:
            c = self._mounted(path, data)
        if c is None:
            c = self.around(path)
        if (c is None or c.weak) and data is not None and at is not None:
            c = self._stated(data, at) or c
        if c is None:
            note = self.note_for(path)
            if note is not None:
                unmapped.append(note)
            return Choice(self.db.newest, NEWEST_SOURCE if not unmapped else f"{NEWEST_SOURCE}; {'; '.join(unmapped)}",
                          "default")
        return c

    def _mounted(self, path: AnyPath, data: bytes) -> Optional[Choice]:
        """The pin of a local folder a SkyPilot task uploads to its cluster (``file_mounts:``'s
        local sources, ``workdir:``), found as for the files around a launch
        (``Surroundings.pin_for``): a lock file the task mounts is the environment its ``setup``
        installs, though it sits beside the task's folder, not above it. A relative source is
        the task file's folder's, else the repository root's (where ``sky launch`` is run)."""
        text = data.decode("utf-8", errors="replace")
        block = _FILE_MOUNTS.search(text)
        sources = [m.group(1) for m in _MOUNT_SOURCE.finditer(block.group(1))] if block else []
        sources += [m.group(1) for m in _WORKDIR.finditer(text)]
        directory = self.real_parent(path)
        bases = [directory]
        root = self.surroundings.root_of(directory)
        if root is not None and root != directory:
            bases.append(root)
        for local in sources:
            if "://" in local or local.startswith(("/", "~", "$", "{")):
                continue  # (a bucket, a path of the user's machine, a value filled at launch)
            for base in bases:
                where = os.path.normpath(os.path.join(base, local))
                if root is not None and not (where + os.sep).startswith(root + os.sep):
                    continue
                watch(where, exists=True)
                if os.path.isfile(where):
                    folder = os.path.dirname(where)
                elif os.path.isdir(where):
                    folder = where
                else:
                    continue
                named = self.surroundings.pin_for(folder)
                c = self._from_named(named) if named is not None else None
                if c is not None:
                    if named.read is not None:
                        inputs.replay([named.read])
                    c.why = f"{c.why} (in {local}, which the task uploads)"
                    return c
                break
        return None

    def _built(self, path: AnyPath, data: bytes) -> Optional[Named]:
        """``surroundings.built_for`` of the file's folder and text, once per file (not per launch:
        the whole text was decoded and scanned again for each launch of a file)."""
        directory = self.real_parent(path)
        memo = self._built_memo
        if memo is None or memo[0] is not data or memo[1] != directory:
            memo = self._built_memo = (data, directory,
                                       self.surroundings.built_for(directory, data.decode("utf-8", errors="replace")))
        return memo[2]

    def _kustomized(self, path: AnyPath, data: bytes, image: str) -> Optional[Choice]:
        """The release of the image the repository's kustomizations put in place of the launch's
        placeholder image (``pipeline.kustomize``), or None (a note when they set several)."""
        if self.watched is not None:  # (the repository's kustomizations, whichever set it or none)
            inputs.replay([inputs.WHOLE_SURVEY])
        directory = self.real_parent(path)
        root = self.surroundings.root_of(directory)
        if root is None or not str(path).endswith((".yaml", ".yml")):
            return None
        named, note, reads = self.repository.kustomized(root, data, image)
        if note is not None:
            self._notes[self._key(path)] = note
        if named is None:
            return None
        c = self._from_named(named)
        if c is not None and reads:  # (the files that decided it, in this analysis's record)
            inputs.replay(reads)
        return c

    def _from_reading(self, r: HintReading, why: str, text: str, hint: Optional[VersionHint] = None) -> Optional[Choice]:
        if r.status == "release":
            return Choice(r.version, why + (f" ({r.note})" if r.note else ""), "named", r.named, hint)
        if r.status == "series":
            return Choice(r.version, f"{why} ({r.note})", "named", r.named, hint)
        if r.status == "newer":
            return Choice(r.version, f"{why} ({r.note})", "newer", r.named, hint)
        if r.status == "older":
            return Choice(r.version, f"{why} ({r.note})", "named", r.named, hint)
        if r.status == "build":
            if text.lower() in ("latest", "main"):  # ("image tag latest" -> "image tag 'latest' (...)")
                head = why[:-len(text) - 1] if why.endswith(" " + text) else why
                return Choice(r.version, f"{head} '{text}' ({NEWEST_SOURCE})", "build", None, hint)
            return Choice(r.version, f"{why} ({r.note})", "build", None, hint)
        if r.status == "dated":  # (between the release current that day and the next)
            c = Choice(r.version, f"{why} ({r.note})", "between", r.named, hint)
            c.low, c.high = r.version, r.high
            return c
        if r.status == "unknown":
            c = Choice(r.high or self.db.newest, f"{why} ({r.note})", "between", None, hint)
            c.low = r.low
            return c
        return None

    def _fork_built(self, data: bytes, at: int) -> Optional[Choice]:
        """The release of the fork of vLLM the file builds before the launch at offset ``at`` (the
        nearest build before it, else the file's first): the upstream release its tag names, a
        dated branch's, else "unknown"."""
        if b"github.com" not in data:
            return None
        if self._fork_memo is None or self._fork_memo[0] is not data:  # (once per file, not per launch)
            from ..knowledge.forks import fork_builds

            text = data.decode("utf-8", errors="replace")
            self._fork_memo = (data, [(len(text[:b.offset].encode("utf-8")), b) for b in fork_builds(text)])
        builds = self._fork_memo[1]
        if not builds:
            return None
        before = [b for offset, b in builds if offset < at]
        b = before[-1] if before else builds[0][1]
        what = f"a build of the fork {b.repo}" + (f" at {b.ref}" if b.ref else " (its default branch)")
        if b.release is not None:
            r = self._read_hint(b.release)
            c = self._from_reading(r, f"{what}, which names vLLM {b.release}", b.release)
            if c is not None:
                return c
        if b.ref is not None:
            from ..knowledge.image_tags import dated

            r = dated(self.db, b.ref)
            if r.status == "dated":
                return self._from_reading(r, what, b.ref)
        return Choice(self.db.newest, f"{what}: the vLLM release it is built from is unknown", "between")

    def _stated(self, data: bytes, at: int) -> Optional[Choice]:
        """A release a comment within :data:`WORDS_LINES` lines before offset ``at`` states, the
        nearest first (``# tested with vLLM 0.11.0``)."""
        pos = data.rfind(b"\n", 0, at) + 1  # the start of the launch's line
        if pos == 0:
            return None
        # (only the lines naming vLLM, in any case, are read: their starts are found once per file,
        # on its bytes lower-cased, for all its launches, and a launch looks up those before its line
        # by bisection. ASCII folding finds what the decoded line's ``lower()`` finds: no other
        # character folds to `v`, `l` or `m`)
        _data, starts, read = self._vllm_lines(data)
        k = bisect_left(starts, pos) - 1
        while k >= 0:
            start = starts[k]
            if data.count(b"\n", start, pos) > WORDS_LINES:  # (the lines from there to the launch's)
                break
            got = read.get(start)
            if got is None:  # (each line read once for the file's launches)
                from ..knowledge.stated import stated_in_comment  # (a file with a line naming vllm only)

                line = data[start:data.find(b"\n", start)].decode("utf-8", errors="replace")
                got = read[start] = (line, stated_in_comment(line))
            line, m = got
            if m:
                row = data.count(b"\n", 0, start) + 1
                v = m.group("v")
                a = start + len(line[:m.start("v")].encode())
                hint = VersionHint(v, "comment", Span(a, a + len(v.encode())))
                return self._from_reading(self._read_hint(v), f"a comment at line {row} states vLLM {v}", v, hint)
            k -= 1
        return None

    def _vllm_lines(self, data: bytes) -> tuple[bytes, list[int], dict]:
        """``(data, the offsets where the lines of data that name vllm (in any case) start, in order,
        {such a line's start: (the line, what a comment there states)} as read)``, once per file
        (``_stated``)."""
        memo = self._lines_memo
        if memo is None or memo[0] is not data:
            low = data.lower()
            starts: list[int] = []
            i = low.find(b"vllm")
            while i != -1:
                start = low.rfind(b"\n", 0, i) + 1
                starts.append(start)
                end = low.find(b"\n", i)
                if end == -1:
                    break
                i = low.find(b"vllm", end)
            memo = self._lines_memo = (data, starts, {})
        return memo


def _may_name_plugin(image: Optional[str], source: Optional[bytes], words: tuple[bytes, ...]) -> bool:
    """Whether ``plugin_evidence.own`` may find a plugin release for a launch of ``image`` in a
    file of bytes ``source``: an image it reads (no variable in it), or a text whose lower case
    holds a plugin word (``of_text``'s screen, on the decoded text: a file holding a character that
    is not ASCII is read, as ``K`` (the Kelvin sign) lower-cases to ``k``). Else it is not imported."""
    if image and "$" not in image and "{" not in image:
        return True
    if not source:
        return False
    if not source.isascii():
        return True
    low = source.lower()
    return any(low.find(w) >= 0 for w in words)


def _shown(m: Any) -> str:
    """A repository's mention (``pipeline.repository.Mention``) as --verbose names it."""
    from .repository import UNPINNED

    return m.image or ("vllm, unpinned" if m.text == UNPINNED else f"vllm=={m.text}")


# ----------------------------------------------------------------------------- inferred range


def accepted_range(db: Database, args: list, env_names: list[str]) -> Optional[tuple[str, str]]:
    """The releases that accept every option in ``args`` (``argv.ParsedArg``: its normalised
    string, for keyword and config launches the option a key stands for), every value among an
    option's choices and every ``VLLM_*`` variable in ``env_names``: (first, last) of the newest
    unbroken run of them, or None when no release accepts all, or nothing in the launch tells
    releases apart (only options every release has, or none any release had)."""
    n = len(db.versions)
    ok = (1 << n) - 1  # the releases still accepting it, as bits (``History.mask``)
    for a in args:
        string = _string(a)
        h = db.option_history(string) if string else None
        if h is not None:  # (a word no release ever accepted says nothing about the era)
            ok &= h.mask
    for name in env_names:
        h = db.env_history(name)
        if h is not None:
            ok &= h.mask
    if not ok:
        return None
    # values: drop the ends whose parser refuses a value the launch gives (bounded: each step
    # drops one release; the index lists each option's choices per release)
    valued = [(_string(a), str(a.value)) for a in args
              if _string(a) and isinstance(a.value, (str, int, float)) and not a.value_opaque and not a.json_path]
    lo, hi = _newest_run(ok)

    def accepts(i: int) -> bool:
        s = db.surface(db.versions[i])
        for string, value in valued:
            o = s.lookup(string) if string else None
            if o is not None and o.choices and not o.choices_platform and value not in [str(c) for c in o.choices]:
                return False
        return True

    if valued and db.indexes_choices:  # the index's choice lists: no release file loaded
        # the releases whose parser refuses a value given, found once (not per release stepped over)
        refused: set[int] = set()
        for string, value in valued:
            for choices, indices in db.option_choices(string):
                if value not in choices:
                    refused.update(indices)
        if refused:
            while lo <= hi and lo in refused:
                lo += 1
            while lo <= hi and hi in refused:
                hi -= 1
    elif valued:
        while lo <= hi and not accepts(lo):
            lo += 1
        while lo <= hi and not accepts(hi):
            hi -= 1
    if lo > hi or (lo == 0 and hi == n - 1):
        return None  # (every release accepts it: nothing tells releases apart)
    return db.versions[lo], db.versions[hi]


def never_accepted(db: Database, args: list, env_names: list[str]) -> list[str]:
    """The options of ``args`` and the ``VLLM_*`` variables of ``env_names`` that no release of
    the database has, in order: :func:`accepted_range` leaves them out (a word no release accepted
    says nothing about the era), so what it gives is true of the launch's other words only."""
    out: list[str] = []
    for a in args:
        string = _string(a)
        if string and string not in out and db.option_history(string) is None:
            out.append(string)
    for name in env_names:
        if name.startswith("VLLM_") and name not in out and db.env_history(name) is None:
            out.append(name)
    return out


def never_accepted_note(unknown: list[str]) -> str:
    """What a statement about the releases that accept a launch as written (:func:`accepted_range`)
    must add beside the words no release has (:func:`never_accepted`): ``, but for `--stop` (no
    release has it),``; "" when there are none."""
    if not unknown:
        return ""
    names = ", ".join(f"`{u}`" for u in unknown)
    return f", but for {names} (no release has {'it' if len(unknown) == 1 else 'them'}),"


def _string(a: Any) -> Optional[str]:
    """The option string a parsed argument names (its normalised spelling), or None."""
    if a.positional or not a.canonical or not a.canonical.startswith("-"):
        return None
    return a.canonical


def _newest_run(mask: int) -> tuple[int, int]:
    """(first, last) of the longest run of consecutive positions that ends the set bits of
    ``mask`` (not 0): its highest bit and the bits set below it without a gap."""
    hi = mask.bit_length() - 1
    lo = (~mask & ((1 << hi) - 1)).bit_length()  # just above the highest clear bit below ``hi``
    return lo, hi
