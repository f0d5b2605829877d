"""Model facts for the anti-pattern rules: heads, KV heads, experts, MLA, max positions.

Where they come from, in order:

1. a local ``config.json`` when the model is a local directory;
2. the shipped table ``vllm_lint/data/models.tsv`` (reviewed data, one source per row), matched on
   the Hugging Face repository id (case-insensitive, exact: no fuzzy matching, no guessing);
3. the local Hugging Face cache (``HF_HUB_CACHE``, ``HF_HOME/hub`` or ``~/.cache/huggingface/hub``:
   ``models--org--name/snapshots/*/config.json``);
4. only with ``--online``: the hub's ``config.json`` fetched with ``requests`` and cached under the
   user cache directory. ``requests`` is imported only then.

An unknown model yields ``None`` and the reason; model-dependent rules then stay silent (and say
so under ``--verbose``). ``--served-model-name`` is never the model: the model is the positional of
``vllm serve``, ``--model``, the ``model=`` keyword of ``LLM(...)`` or a config file's ``model:``.
"""

from __future__ import annotations

import os
import re
import stat

from ..record import lazy_json as json  # (json.loads without the json package: record.json_loads)
from .. import inputs  # (a base module of a few lines: asked on every resolution, ~4,500 in a launch-dense tree)
from ..record import lazy_re, screened_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Optional
    from pathlib import Path

HUB_URL = "https://huggingface.co/{repo}/resolve/{revision}/config.json"
_REPO_ID = lazy_re(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")


class ModelFacts:
    """What the rules know of one model. ``model``: the name the facts are filed under (table row
    or repo id); ``kv_heads``: None when not applicable (MLA) or heterogeneous; ``source``: where
    these facts come from ("models.tsv: <row source>", "config.json at ..."). Immutable and
    hashable, as the frozen dataclass it replaces (a plain class: start-up, vllm_lint/record.py)."""

    __slots__ = ("model", "architecture", "heads", "kv_heads", "hidden_size", "layers", "routed_experts",
                 "experts_per_token", "mla", "max_positions", "block_fp8", "source", "notes", "head_dim",
                 "params_total", "params_active", "params_lower_bound", "weight_dtype", "matched_by")

    def __init__(self, model: str, architecture: Optional[str] = None, heads: Optional[int] = None,
                 kv_heads: Optional[int] = None, hidden_size: Optional[int] = None, layers: Optional[int] = None,
                 routed_experts: Optional[int] = None, experts_per_token: Optional[int] = None,
                 mla: Optional[bool] = None, max_positions: Optional[int] = None, block_fp8: Optional[bool] = None,
                 source: str = "", notes: str = "", head_dim: Optional[int] = None,
                 params_total: Optional[int] = None, params_active: Optional[int] = None,
                 params_lower_bound: bool = False, weight_dtype: Optional[str] = None,
                 matched_by: str = "") -> None:
        s = object.__setattr__
        s(self, "model", model)
        s(self, "architecture", architecture)
        s(self, "heads", heads)
        s(self, "kv_heads", kv_heads)
        s(self, "hidden_size", hidden_size)
        s(self, "layers", layers)
        s(self, "routed_experts", routed_experts)
        s(self, "experts_per_token", experts_per_token)
        s(self, "mla", mla)
        s(self, "max_positions", max_positions)
        s(self, "block_fp8", block_fp8)
        s(self, "source", source)
        s(self, "notes", notes)
        s(self, "head_dim", head_dim)
        s(self, "params_total", params_total)
        s(self, "params_active", params_active)
        s(self, "params_lower_bound", params_lower_bound)
        s(self, "weight_dtype", weight_dtype)
        s(self, "matched_by", matched_by)

    def replace(self, **changes: Any) -> "ModelFacts":
        vals = {k: getattr(self, k) for k in self.__slots__}
        vals.update(changes)
        return ModelFacts(**vals)

    def _values(self) -> tuple:
        return tuple(getattr(self, k) for k in self.__slots__)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self):
        return (ModelFacts, self._values())

    def __repr__(self) -> str:
        return f"ModelFacts({', '.join(f'{k}={getattr(self, k)!r}' for k in self.__slots__)})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is not ModelFacts:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    @property
    def is_moe(self) -> bool:
        return bool(self.routed_experts and self.routed_experts > 1)

    @property
    def activation_density(self) -> Optional[float]:
        if not self.is_moe or not self.experts_per_token:
            return None
        return self.experts_per_token / self.routed_experts  # type: ignore[operator]


# ------------------------------------------------------------------------------ shipped table

_TABLE: Optional[dict[str, ModelFacts]] = None
_ROWS: Optional[list[dict[str, Optional[str]]]] = None  # the table's rows as read
_ROW_FACTS: dict[int, ModelFacts] = {}  # row number -> its facts, made at first use
_ID_ROWS: Optional[dict[str, int]] = None  # a listed repo id in lower case -> its row number
_WRITTEN: dict[str, str] = {}  # a table id in lower case -> as the table writes it
_REMOTE_CODE: dict[str, tuple[bool, str]] = {}  # a listed repo id in lower case -> (ships code, source)


def _int(s: str) -> Optional[int]:
    s = (s or "").strip()
    try:
        return int(s) if s else None
    except ValueError:
        return None


def _billions(s: Optional[str]) -> Optional[int]:
    s = (s or "").strip()
    try:
        return int(round(float(s) * 1e9)) if s else None
    except ValueError:
        return None


def _yesno(s: str) -> Optional[bool]:
    s = (s or "").strip().lower()
    return True if s == "yes" else False if s == "no" else None


def _table_file() -> str:
    """The shipped table's path, a string (``os.path``: the lint path imports no ``pathlib``)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "data", "models.tsv")


def _table_path() -> Path:
    from pathlib import Path

    return Path(_table_file())


def _tsv_rows(lines: list[str]) -> list[dict[str, Optional[str]]]:
    """``csv.DictReader(lines, delimiter="\\t")`` for a table without quoting (the csv module costs
    ~0.5 ms of start-up); it is used when a quote appears."""
    if any('"' in ln for ln in lines):
        import csv

        return list(csv.DictReader(lines, delimiter="\t"))
    header: Optional[list[str]] = None
    rows: list[dict[str, Optional[str]]] = []
    for ln in lines:
        ln = ln.rstrip("\r\n")
        if not ln:
            continue
        cells = ln.split("\t")
        if header is None:
            header = cells
            continue
        row: dict[str, Optional[str]] = dict(zip(header, cells))
        for k in header[len(cells):]:
            row[k] = None
        rows.append(row)
    return rows


def _rows() -> list[dict[str, Optional[str]]]:
    """The table's rows as read (once per process), before any is made a :class:`ModelFacts`."""
    global _ROWS
    if _ROWS is None:
        with open(_table_file(), encoding="utf-8", newline="") as f:
            lines = [ln for ln in f if not ln.startswith("#")]
        _ROWS = _tsv_rows(lines)
    return _ROWS


def _row_ids(row: dict[str, Optional[str]]) -> list[str]:
    return [rid for rid in (r.strip() for r in (row.get("hf_repo_ids") or "").split(";")) if rid]


def _facts_of(i: int) -> ModelFacts:
    """Row ``i`` as facts, made once (and its ids noted as written, with what they ship)."""
    facts = _ROW_FACTS.get(i)
    if facts is None:
        row = _rows()[i]
        facts = _ROW_FACTS[i] = ModelFacts(
            model=row["model"], architecture=row.get("architecture") or None,
            heads=_int(row.get("num_attention_heads", "")),
            kv_heads=_int(row.get("num_key_value_heads", "")),
            hidden_size=_int(row.get("hidden_size", "")), layers=_int(row.get("num_hidden_layers", "")),
            routed_experts=_int(row.get("moe_routed_experts", "")),
            experts_per_token=_int(row.get("experts_per_token", "")),
            mla=_yesno(row.get("uses_mla", "")), max_positions=_int(row.get("max_position_embeddings", "")),
            block_fp8=_yesno(row.get("block_fp8", "")),
            source="vllm_lint/data/models.tsv row " + row["model"] + ": " + (row.get("source") or ""),
            notes=row.get("notes") or "", head_dim=_int(row.get("head_dim") or ""),
            params_total=_billions(row.get("params_total_b")), params_active=_billions(row.get("params_active_b")),
            params_lower_bound="lower bound" in (row.get("params_basis") or ""),
            weight_dtype=(row.get("native_dtype") or "").strip() or None)
        ships_code = _yesno(row.get("remote_code") or "")
        for rid in _row_ids(row):
            _WRITTEN[rid.lower()] = rid
            if ships_code is not None:
                _REMOTE_CODE[rid.lower()] = (ships_code, "vllm_lint/data/models.tsv row " + row["model"]
                                             + ": " + (row.get("remote_code_source") or ""))
    return facts


def table() -> dict[str, ModelFacts]:
    """repo id (lower case) -> facts, loaded once per process."""
    global _TABLE
    if _TABLE is None:
        out: dict[str, ModelFacts] = {}
        for i, row in enumerate(_rows()):
            facts = _facts_of(i)
            for rid in _row_ids(row):
                out[rid.lower()] = facts
        _TABLE = out
    return _TABLE


def listed(repo_id: str) -> Optional[ModelFacts]:
    """``table().get(repo_id.lower())`` without making every row's facts: a launch naming a listed
    hub id (the common case) needs its row only (the whole table is ~2 ms of a one-file lint)."""
    key = repo_id.lower()
    if _TABLE is not None:
        return _TABLE.get(key)
    global _ID_ROWS
    if _ID_ROWS is None:
        _ID_ROWS = {rid.lower(): i for i, row in enumerate(_rows()) for rid in _row_ids(row)}  # (the last row wins, as in table())
    i = _ID_ROWS.get(key)
    return None if i is None else _facts_of(i)


# ------------------------------------------------------------------------------ config.json


def _first(d: dict[str, Any], *keys: str) -> Any:
    for k in keys:
        if d.get(k) is not None:
            return d[k]
    return None


def _pos_int(v: Any) -> Optional[int]:
    if isinstance(v, bool):
        return None
    if isinstance(v, int) and v > 0:
        return v
    if isinstance(v, float) and v > 0 and v.is_integer():
        return int(v)
    return None


def facts_from_config(cfg: dict[str, Any], name: str, source: str) -> Optional[ModelFacts]:
    """Facts from a Hugging Face ``config.json`` (text part of multimodal configs)."""
    if not isinstance(cfg, dict):
        return None
    archs = cfg.get("architectures")
    arch = archs[0] if isinstance(archs, list) and archs and isinstance(archs[0], str) else None
    text = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else cfg
    heads = _pos_int(_first(text, "num_attention_heads", "n_head", "num_heads"))
    mla = text.get("kv_lora_rank") is not None
    kv_raw = _first(text, "num_key_value_heads", "n_head_kv", "num_kv_heads")
    kv = None if mla else (_pos_int(kv_raw) if kv_raw is not None else heads)
    if isinstance(kv_raw, list):  # heterogeneous layers
        kv = None
    experts = _pos_int(_first(text, "n_routed_experts", "num_local_experts", "num_experts", "moe_num_experts"))
    per_tok = _pos_int(_first(text, "num_experts_per_tok", "num_experts_per_token", "moe_topk", "experts_per_token"))
    max_pos = _pos_int(text.get("max_position_embeddings"))
    rope = text.get("rope_scaling") or cfg.get("rope_scaling")
    if max_pos is not None and isinstance(rope, dict):
        # vLLM derives a longer limit from some rope scalings; take the largest candidate so that
        # VL403 never fires on a model whose scaling extends the context.
        rtype = str(rope.get("rope_type") or rope.get("type") or "")
        factor = rope.get("factor")
        if rtype not in ("", "default", "llama3", "su", "longrope", "mrope") and isinstance(factor, (int, float)) \
                and not isinstance(factor, bool) and factor > 1:
            cands = [max_pos, int(max_pos * factor)]
            orig = _pos_int(rope.get("original_max_position_embeddings"))
            if orig:
                cands.append(int(orig * factor))
            max_pos = max(cands)
        elif rtype in ("longrope", "su"):
            orig = _pos_int(rope.get("original_max_position_embeddings"))
            max_pos = max(max_pos, orig or 0)
    q = cfg.get("quantization_config") if isinstance(cfg.get("quantization_config"), dict) else {}
    block_fp8 = bool(q.get("weight_block_size")) and str(q.get("quant_method", "")).lower() == "fp8" if q else False
    if heads is None and experts is None and max_pos is None:
        return None
    from .params import count_params, dtype_of_config

    counted = count_params(cfg)
    hidden = _pos_int(text.get("hidden_size"))
    if mla:
        head_dim = (_pos_int(text.get("kv_lora_rank")) or 0) + (_pos_int(text.get("qk_rope_head_dim")) or 0) or None
    else:
        head_dim = _pos_int(text.get("head_dim")) or (hidden // heads if hidden and heads else None)
    return ModelFacts(model=name, architecture=arch, heads=heads, kv_heads=kv,
                      hidden_size=hidden, layers=_pos_int(text.get("num_hidden_layers")),
                      routed_experts=experts, experts_per_token=per_tok, mla=mla, max_positions=max_pos,
                      block_fp8=block_fp8, source=source, head_dim=head_dim,
                      params_total=counted[0] if counted else None, params_active=counted[1] if counted else None,
                      weight_dtype=dtype_of_config(cfg))


def _read_config(path: Path, name: str) -> Optional[ModelFacts]:
    raw = inputs.read_other(str(path), 4 * 1024 * 1024)  # (the finding depends on it: the cache must know)
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return facts_from_config(data, name, f"config.json at {path}")


USE_USER_CACHES = True  # False under --isolated: the same answer on a laptop and in CI


def hf_cache_dirs() -> list[Path]:
    if not USE_USER_CACHES:
        return []
    from pathlib import Path

    out = []
    if os.environ.get("HF_HUB_CACHE"):
        out.append(Path(os.environ["HF_HUB_CACHE"]))
    if os.environ.get("HUGGINGFACE_HUB_CACHE"):
        out.append(Path(os.environ["HUGGINGFACE_HUB_CACHE"]))
    if os.environ.get("HF_HOME"):
        out.append(Path(os.environ["HF_HOME"]) / "hub")
    out.append(Path(os.path.expanduser("~")) / ".cache" / "huggingface" / "hub")
    return out


def _from_hf_cache(repo: str) -> Optional[ModelFacts]:
    folder = "models--" + repo.replace("/", "--")
    for base in hf_cache_dirs():
        snaps = base / folder / "snapshots"
        try:
            cands = sorted(snaps.glob("*/config.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            continue
        for c in cands:
            facts = _read_config(c, repo)
            if facts is not None:
                return facts
    return None


def _cache_dir() -> Path:
    from pathlib import Path

    import platformdirs

    return Path(platformdirs.user_cache_dir("vllm-lint")) / "hf-configs"


def _from_hub(repo: str, revision: Optional[str]) -> tuple[Optional[ModelFacts], Optional[str]]:
    rev = revision or "main"
    cache = _cache_dir() / (repo.replace("/", "--") + "@" + re.sub(r"[^A-Za-z0-9._-]", "_", rev) + ".json")
    if _is_file(str(cache)):
        facts = _read_config(cache, repo)
        if facts is not None:
            return facts, None
    import requests  # only with --online

    headers = {}
    token = os.environ.get("HF_TOKEN") or os.environ.get("HUGGING_FACE_HUB_TOKEN")
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        r = requests.get(HUB_URL.format(repo=repo, revision=rev), headers=headers, timeout=10)
    except requests.RequestException as e:
        return None, f"the hub could not be reached ({type(e).__name__})"
    if r.status_code != 200:
        return None, f"the hub answered {r.status_code} for {repo}"
    try:
        data = r.json()
    except ValueError:
        return None, "the hub's config.json is not JSON"
    facts = facts_from_config(data, repo, f"config.json of {repo}@{rev} from the Hugging Face hub")
    if facts is None:
        return None, f"{repo}'s config.json has no usable architecture facts"
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError:
        pass
    return facts, None


# ------------------------------------------------------------------------------ resolution

_MEMO: dict[tuple[str, Optional[str], bool, Optional[str]], Any] = {}  # key -> (answer, files read)
# the part of a resolution that does not depend on the linted file's directory: a repository
# asks for the same few models from many directories
_BY_NAME: dict[tuple[str, Optional[str], bool], Any] = {}


def remote_code(repo_id: str) -> Optional[tuple[bool, str]]:
    """Whether the hub repository ``repo_id`` ships its own Python code (what ``--trust-remote-code``
    lets run), with the source; None when the table does not say. Only the repo ids a row lists
    count: a re-upload matched by name may add code of its own."""
    table()
    return _REMOTE_CODE.get(repo_id.strip().lower())


def clear_cache() -> None:
    """Forget resolved models (tests change HF_HOME between runs)."""
    _MEMO.clear()
    _BY_NAME.clear()


def resolve(model: Optional[str], *, revision: Optional[str] = None, online: bool = False,
            base_dir: Optional[Path | str] = None,
            real_base: Optional[Callable[[], Path]] = None) -> tuple[Optional[ModelFacts], str]:
    """-> (facts, how or why not). ``base_dir``: the linted file's directory, where a relative
    local model path is looked for. With ``real_base`` it may be the directory as written: the
    kernel finds the same config.json through it, and ``real_base()`` (the real directory, which
    costs an lstat per new path component) is asked only to name a config.json found there."""
    if not model or not isinstance(model, str):
        return None, "the launch names no model"
    model = model.strip()
    key = (model, revision, online, str(base_dir) if base_dir else None)
    return _memoised(_MEMO, key, lambda: _resolve(model, revision, online, base_dir, real_base))


def _memoised(memo: dict, key: Any, resolve_once: Callable[[], tuple[Optional[ModelFacts], str]]
              ) -> tuple[Optional[ModelFacts], str]:
    """``memo[key]``, resolved once; the files the resolution read (``vllm_lint.inputs``) are
    noted again on every hit, so each file's analysis knows what its findings depend on."""
    hit = memo.get(key)
    if hit is None:
        with inputs.recording() as reads:
            answer = resolve_once()
        hit = memo[key] = (answer, tuple(reads.items()))
    else:
        inputs.replay(hit[1])
    return hit[0]


def _is_file(path: str) -> bool:
    """Whether ``path`` is a regular file; any error (a missing path, a name too long for the file
    system, a NUL byte) means no. ``Path.is_file`` raises for some of those."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _resolve(model: str, revision: Optional[str], online: bool, base_dir: Optional[Path | str],
             real_base: Optional[Callable[[], Path]] = None) -> tuple[Optional[ModelFacts], str]:
    if any(c in model for c in "${}`") or not model:
        return None, f"the model `{model}` is not known statically"
    # a local directory (checked with strings first: usually there is no such file)
    expanded = os.path.expanduser(model)
    dirs = [expanded]
    if base_dir is not None and not os.path.isabs(expanded):
        dirs.append(os.path.join(str(base_dir), model))
    for i, d in enumerate(dirs):
        cfg = os.path.join(d, "config.json")
        if _is_file(cfg):
            if i == 1 and real_base is not None:
                cfg = os.path.join(str(real_base()), model, "config.json")
            from pathlib import Path

            facts = _read_config(Path(cfg), model)
            if facts is not None:
                return facts, facts.source
    return _memoised(_BY_NAME, (model, revision, online), lambda: _by_name(model, revision, online))


# ------------------------------------------------------------------------------ name rules

# quantisation suffixes, outermost last: (pattern, weight format it sets or None when the bits vary)
# (screened: a name without one of its literals is answered before the expression is compiled, ~3 M
# instructions, as most names are)
_QUANT_SUFFIXES = screened_re(
    r"(?i)[-_.](fp8(?:[-_](?:dynamic|static|block|per[-_]?tensor|e4m3|kv))*|nvfp4|mxfp4|awq|gptq(?:[-_]int[48])?|"
    r"int[48](?:[-_]awq)?|w8a8(?:[-_]fp8|[-_]int8)?|w4a16(?:[-_]g128)?|w4a8|(?:unsloth[-_])?bnb[-_]4bit|[48]bit|gguf|"
    r"quantized[-_.]w\d+a\d+|qat)$")
_INSTRUCT_SUFFIXES = lazy_re(r"(?i)[-_](instruct|chat|it|thinking|base|hf|sft|dpo|\d{4})$")
_DATE = lazy_re(r"(?<=[-_])\d{4}(?=$|[-_])")
# the last folder of a path laid out by revision (a branch name or a full commit id), not the model
_REVISION_DIR = lazy_re(r"(?<=[^/])/(?:main|master|[0-9a-f]{40})$")
_HF_CACHE_DIR = screened_re(r"(?:^|/)models--([^/]+?)--([^/]+)(?:/snapshots/[^/]+)?/?$")


def _quant_dtype(suffix: str) -> Optional[str]:
    s = suffix.lower().lstrip("-_.").replace("quantized.", "").replace("quantized-", "")
    s = s[len("unsloth-"):] if s.startswith(("unsloth-", "unsloth_")) else s
    if s.startswith("fp8") or s.startswith("w8a8-fp8") or s == "w8a8_fp8":
        return "fp8"
    if s.startswith(("nvfp4",)):
        return "nvfp4"
    if s.startswith("mxfp4"):
        return "mxfp4"
    if s.startswith(("awq", "w4a16", "bnb", "4bit", "int4", "w4a8")) or s in ("gptq-int4", "gptq_int4"):
        return "int4"
    if s.startswith(("int8", "w8a8", "8bit")) or s in ("gptq-int8", "gptq_int8"):
        return "int8"
    return None  # GPTQ without bits, GGUF, QAT: the width is not in the name


def model_name_parts(model: str) -> Optional[tuple[Optional[str], str, str]]:
    """(repo id or None, last component, how the name was read) for a model as written: a hub id,
    ``hf://org/name``, a URL or a local path whose last component names the model, a Hugging Face
    cache directory (``models--org--name``)."""
    m = model.strip()
    low = m.lower()
    for scheme in ("hf://", "huggingface://"):
        if low.startswith(scheme):
            rest = m[len(scheme):].strip("/")
            if _REPO_ID.match(rest):
                return rest, rest.split("/")[1], "hf:// URL"
            return None, rest.rsplit("/", 1)[-1], "hf:// URL"
    c = _HF_CACHE_DIR.search(m)
    if c:
        return f"{c.group(1)}/{c.group(2)}", c.group(2), "Hugging Face cache directory"
    if "://" in m or m.startswith(("/", "./", "../", "~")) or m.count("/") > 1:
        path = m.rstrip("/")
        while _REVISION_DIR.search(path):  # ``/models/org/name/main``: a download laid out by revision
            path = path[:path.rfind("/")]
        last = path.rsplit("/", 1)[-1]
        if not last or last in (".", "..") or "://" in last:
            return None
        return None, last, ("URL" if "://" in m else "local path") + " ending in the model's name"
    if _REPO_ID.match(m):
        return m, m.split("/")[1], "hub id"
    if re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]*$", m):
        return None, m, "bare model name"
    return None


_NAME_INDEX: Optional[dict[str, list[tuple[str, ModelFacts]]]] = None
# (not before a four-digit date: ``DeepSeek-V4-Flash-0731`` keeps ``-flash`` a token for step 5)
_FAMILY_DASH = lazy_re(r"(?<=[a-z])-(?=\d)(?!\d{4}(?:$|[-_.]))")
_META_PREFIX = lazy_re(r"^meta-(?=llama)")


def _norm(name: str) -> str:
    """A name for comparison: lower case, no dash between a family and its version
    (``Qwen-2.5-0.5B`` and ``Qwen2.5-0.5B``, ``llama3-8b`` and ``Llama-3-8B`` are written both ways),
    no ``Meta-`` before ``Llama`` (Meta's repositories dropped it from Llama 3.1 on). Suffixes are
    read on the name as written, before this (``-2507``, ``-4bit`` follow a letter as a version does)."""
    return _FAMILY_DASH.sub("", _META_PREFIX.sub("", name.lower()))


def _name_index() -> dict[str, list[tuple[str, ModelFacts]]]:
    """last component of every table id, as written in lower case -> (the id, its row) of the
    distinct rows it names."""
    global _NAME_INDEX
    if _NAME_INDEX is None:
        idx: dict[str, list[tuple[str, ModelFacts]]] = {}
        for rid, facts in table().items():
            lst = idx.setdefault(rid.rsplit("/", 1)[-1], [])
            if all(f != facts for _, f in lst):
                lst.append((rid, facts))
        _NAME_INDEX = idx
    return _NAME_INDEX


_NORM_INDEX: Optional[dict[str, list[tuple[str, ModelFacts]]]] = None
# (the name index it was built from, each name without its suffixes): rebuilt when the index is
_STRIPPED: Optional[tuple[Any, list[tuple[str, set[str], list[tuple[str, ModelFacts]]]]]] = None


def _stripped_names() -> list[tuple[str, set[str], list[tuple[str, ModelFacts]]]]:
    """(``_norm`` of the name without its quantisation and instruction suffixes, its dates, the
    index entries) for every name of the name index, in its order: computed once, not for every
    unknown model name."""
    global _STRIPPED
    index = _name_index()
    if _STRIPPED is None or _STRIPPED[0] is not index:
        _STRIPPED = (index, [(_norm(_strip(_strip(key, _QUANT_SUFFIXES)[0], _INSTRUCT_SUFFIXES)[0]),
                              set(_DATE.findall(key)), entries) for key, entries in index.items()])
    return _STRIPPED[1]


def _by_norm(name: str) -> list[tuple[str, ModelFacts]]:
    """The index entries whose name compares equal to ``name`` (``_norm``), distinct rows."""
    global _NORM_INDEX
    if _NORM_INDEX is None:
        out: dict[str, list[tuple[str, ModelFacts]]] = {}
        for key, entries in _name_index().items():
            lst = out.setdefault(_norm(key), [])
            lst.extend(e for e in entries if all(f != e[1] for _, f in lst))
        _NORM_INDEX = out
    return _NORM_INDEX.get(_norm(name), [])


_INHERITED = ("heads", "kv_heads", "hidden_size", "layers", "routed_experts", "experts_per_token", "mla")


def _one(rows: list[ModelFacts]) -> Optional[ModelFacts]:
    """The row when every candidate has the same architecture facts, else None (ambiguous); of equal
    rows, one whose parameter count is exact rather than a lower bound."""
    if not rows:
        return None
    first = rows[0]
    if not all(tuple(getattr(r, k) for k in _INHERITED) == tuple(getattr(first, k) for k in _INHERITED) for r in rows):
        return None
    return sorted(rows, key=lambda r: (r.params_total is None, r.params_lower_bound))[0]


def _strip(name: str, pattern) -> tuple[str, list[str]]:
    """``name`` without its trailing matches of ``pattern`` (outermost last), and those suffixes as
    written, innermost first."""
    stripped: list[str] = []
    while True:
        m = pattern.search(name)
        if not m or m.start() == 0:
            return name, stripped[::-1]
        stripped.append(name[m.start():])
        name = name[:m.start()]


def identify(model: str) -> tuple[Optional[ModelFacts], str]:
    """The table row a model name identifies, through the name rules, in order:

    1. the hub id itself (case-insensitive);
    2. its last component, under any organisation (a re-upload: ``RedHatAI/Llama-3.1-8B-Instruct``);
    3. without its quantisation suffixes (``-FP8-dynamic``, ``-AWQ``, ``-GPTQ-Int4``, ``-W4A16``, ``-NVFP4``,
       ``-GGUF``, ...): the variant keeps the row's facts and records the weight format the suffix names;
    4. without its instruction / dated suffixes as well (``-Instruct``, ``-Chat``, ``-Thinking``, ``-2507``):
       the architecture facts are inherited, the context length is not (such variants change it);
    5. a name that carries a row's name on token boundaries (``acme/DeepSeek-V3-sft-v2``,
       ``x/Qwen3-235B-A22B-abliterated-GGUF``): the base's architecture, its parameter counts only
       where the base's name gives the size, never for a distilled model (its name names its teacher).

    Local paths and URLs are read by their last component (``/models/X``, ``s3://bucket/X``); two rows
    with different facts for one name give nothing. ``matched_by`` says which rule matched, on which
    part of the name. -> (facts or None, how or why not)."""
    parts = model_name_parts(model)
    if parts is None:
        return None, f"the model `{model}` does not end in a model name"
    repo, last, how = parts
    facts, why = _identify(repo, last, how)
    if facts is not None:
        m = _QUANT_SUFFIXES.search(last.lower())
        if m and m.start() > 0 and facts.weight_dtype != _quant_dtype(m.group(0)):
            # a listed quantised id (``...-FP8`` in its base's row): the suffix says what the weights are
            dtype = _quant_dtype(m.group(0))
            facts = facts.replace(weight_dtype=dtype, matched_by=facts.matched_by + (
                f"; a quantised id: weights {dtype}, as `{last[m.start():]}` says" if dtype else
                f"; weight width not in `{last[m.start():]}`"))
    return facts, why


def _identify(repo: Optional[str], last: str, how: str) -> tuple[Optional[ModelFacts], str]:
    if repo is not None:
        facts = listed(repo)
        if facts is not None:
            return facts.replace(matched_by=f"{how} `{repo}` is listed in row {facts.model}"), ""
    cands = _by_norm(last)
    if cands:
        f = _one([r for _, r in cands])
        if f is None:
            return None, f"`{last}` names {len(cands)} rows with different facts"
        rid = next(i for i, r in cands if r == f)
        return f.replace(matched_by=f"{how}: `{last}` is the name of `{_WRITTEN.get(rid, rid)}`, listed in row "
                                    f"{f.model}"), ""
    low = last.lower()
    stem, quant = _strip(low, _QUANT_SUFFIXES)
    suffix = last[len(stem):]
    dtype = next((d for d in (_quant_dtype(q) for q in reversed(quant)) if d), None)
    unknown_width = bool(quant) and dtype is None
    if quant:
        cands = _by_norm(stem)
        if cands:
            f = _one([r for _, r in cands])
            if f is None:
                return None, f"`{last[:len(stem)]}` names {len(cands)} rows with different facts"
            return f.replace(weight_dtype=None if unknown_width else dtype, block_fp8=f.block_fp8 if dtype == "fp8" else False,
                             matched_by=f"{how}: quantised variant (`{suffix}`, weights "
                                        f"{dtype or 'of a width the name does not give'}) of row {f.model}"), ""
    base, _ = _strip(stem, _INSTRUCT_SUFFIXES)
    want = _norm(base)
    # with a suffix stripped, or a base model written whose row lists only its -Instruct; a dated
    # name never matches a row of another date (Mistral-Small-2409 and -2501 differ)
    dates = set(_DATE.findall(stem))
    found: list[ModelFacts] = []
    for k, key_dates, entries in _stripped_names():
        if k == want and not (dates and key_dates and dates != key_dates):
            found.extend(r for _, r in entries if r not in found)
    f = _one(found)
    if f is not None:
        variant = last[len(base):]
        what = f"`{variant}` read as a variant's suffix" if variant else "the row's ids add an instruction suffix"
        return f.replace(max_positions=None, weight_dtype=dtype if quant else None, block_fp8=None,
                         matched_by=(f"{how}: `{last}` is a variant of row {f.model} ({what}; architecture "
                                     f"inherited, context length not"
                                     + (f"; weights {dtype}, as `{suffix}` says" if quant and dtype else "") + ")")), ""
    if found:
        return None, f"`{last}` could be a variant of {len(found)} rows with different facts"
    return _carried_base(last, stem, how, dtype if quant else None)


# a derivative's name that carries a row's name (``acme/DeepSeek-V3-ft``): the base's architecture.
# A distilled model is its student's architecture, not its teacher's (``DeepSeek-R1-Distill-Qwen-32B``).
_DISTILL = lazy_re(r"(?:^|[-_.])distill(?:ed)?(?=$|[-_.])")
_SIZE = lazy_re(r"(?<![\d.])(?:\d+x)?\d+(?:\.\d+)?[bm](?=$|[-_.])")  # on a _norm name: `mistral7b`
_NAME_CARRIES = "name carries "
# (the name index it was built from, the vocabulary): rebuilt when the index is
_CARRIED: Optional[tuple[Any, list[tuple[str, str, list[ModelFacts]]]]] = None


_DOTTED_VERSION = lazy_re(r"(?i)[-_]v\d+\.\d+$")


def _base_name(name: str) -> str:
    """A table name without its quantisation, instruction and dotted version suffixes
    (``Mixtral-8x7B-Instruct-v0.1`` -> ``Mixtral-8x7B``; ``-V3`` is a name, not a suffix)."""
    name = _strip(name, _QUANT_SUFFIXES)[0]
    while True:
        shorter = _strip(_strip(name, _DOTTED_VERSION)[0], _INSTRUCT_SUFFIXES)[0]
        if shorter == name:
            return name
        name = shorter


def _carried_vocabulary() -> list[tuple[str, str, list[ModelFacts]]]:
    """(the base as ``_norm`` writes it, the base as the table writes it, its rows) for every table name
    without its quantisation and instruction suffixes, longest first. Names without a digit
    (``phi``) are too generic to be carried."""
    global _CARRIED
    index = _name_index()
    if _CARRIED is None or _CARRIED[0] is not index:
        bases: dict[str, tuple[str, list[ModelFacts]]] = {}
        for key, entries in index.items():
            k = _norm(_base_name(key))
            if len(k) < 5 or not re.search(r"\d", k) or not re.search(r"[a-z]", k):
                continue
            written = _WRITTEN.get(entries[0][0], entries[0][0]).rsplit("/", 1)[-1]
            written = written[:len(_base_name(written))]
            _, rows = bases.setdefault(k, (written, []))
            rows.extend(r for _, r in entries if r not in rows)
        # a base ends at a separator, never inside a version (``DeepSeek-V3`` is not in ``DeepSeek-V3.1``)
        _CARRIED = (index, [(k, w, rows) for k, (w, rows) in sorted(bases.items(), key=lambda kv: -len(kv[0]))])
    return _CARRIED[1]


_CARRIED_PATTERNS: dict[str, Any] = {}


def _carried_pattern(base: str) -> Any:
    """The token-bounded pattern of a base name, compiled when a name first holds it (the
    vocabulary has ~150 names; compiling all was most of an unknown name's first lookup)."""
    p = _CARRIED_PATTERNS.get(base)
    if p is None:
        p = _CARRIED_PATTERNS[base] = re.compile(r"(?:^|[-_.])" + re.escape(base) + r"(?=$|[-_]|\.(?!\d))")
    return p


def _carried_base(last: str, stem: str, how: str, dtype: Optional[str]) -> tuple[Optional[ModelFacts], str]:
    """Step 5 of :func:`identify`: the row whose name ``last`` carries on token boundaries (the
    longest such names; several with different facts give nothing). Only the architecture
    carries over; the parameter counts only when the base's name gives the size."""
    name = _norm(stem)
    if _DISTILL.search(name):
        return None, f"no row of the shipped table names `{last}` (a distilled model: its name names its teacher)"
    spans: list[tuple[int, int, str, list[ModelFacts]]] = []
    for base, written, rows in _carried_vocabulary():
        if base not in name:  # (the pattern holds the base as written)
            continue
        for m in _carried_pattern(base).finditer(name):
            a, b = m.start() + (1 if name[m.start()] in "-_." else 0), m.end()
            if not any(a >= x and b <= y for x, y, _, _ in spans):
                spans.append((a, b, written, rows))
    if not spans:
        return None, f"no row of the shipped table names `{last}`"
    bases = sorted({w for _, _, w, _ in spans})
    f = _one([r for _, _, _, rows in spans for r in rows])
    if f is None:
        return None, f"`{last}` carries {' and '.join(f'`{b}`' for b in bases)}, whose rows have different facts"
    base = bases[0] if len(bases) == 1 else f.model
    sized = any(_SIZE.search(name[a:b]) for a, b, _, _ in spans)
    keep = {} if sized else {"params_total": None, "params_active": None, "params_lower_bound": False}
    return f.replace(model=f"`{last}` (a {base}-architecture model, by its name)", max_positions=None,
                     weight_dtype=dtype, block_fp8=None, **keep,
                     matched_by=f"{how}: {_NAME_CARRIES}{base} (row {f.model}; architecture inherited"
                                + ("" if sized else ", parameter count not: the name gives no size")
                                + ", context length not)"), ""


def _by_name(model: str, revision: Optional[str], online: bool) -> tuple[Optional[ModelFacts], str]:
    """The facts of a model that is not a local directory with a config.json. A base carried in
    the name (step 5 of :func:`identify`) is a guess: the model's own config.json (the local
    Hugging Face cache, the hub with ``online``) outranks it."""
    is_repo = bool(_REPO_ID.match(model)) and not model.startswith(("./", "../", "~"))
    facts, why = identify(model)
    carried = facts if facts is not None and _NAME_CARRIES in facts.matched_by else None
    if facts is not None and carried is None:
        return facts, facts.source
    if not is_repo:
        if carried is not None:
            return carried, carried.source
        return None, f"the model `{model}` is a local path or URL without a readable config.json here, and {why}"
    facts = _from_hf_cache(model)
    if facts is not None:
        return facts, facts.source
    if online and USE_USER_CACHES:
        facts, why = _from_hub(model, revision)
        if facts is not None:
            return facts, facts.source
        if carried is not None:
            return carried, carried.source
        return None, f"the model `{model}` is not in the shipped table or the local Hugging Face cache, and {why}"
    if carried is not None:
        return carried, carried.source
    return None, (f"the model `{model}` is not in the shipped table or the local Hugging Face cache "
                  "(use --online to read its config.json from the hub)")
