"""Generate the benchmark corpus: a mixed repository of >= 2,000 files (shell, YAML, Python,
Dockerfile, Markdown) in which a minority mentions vLLM, as in real repositories.

Deterministic: a fixed seed, and Python files are taken from this interpreter's standard library
(sorted, then sampled with the seed), so the same Python version gives the same bytes. Output:
``benchmarks/corpus/repo/`` (the whole-repository run) and ``benchmarks/corpus/one/`` (single
files with a vLLM launch, as pre-commit hands them over). ``benchmarks/corpus/`` is gitignored.

    python benchmarks/corpus.py [--out DIR] [--scale 1.0]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import shutil
import sysconfig
from pathlib import Path

SEED = 20240607
HERE = Path(__file__).resolve().parent
COUNTS = {"sh": 600, "yaml": 700, "py": 400, "docker": 200, "md": 300}  # 2,200 files
VLLM_SHARE = 0.12  # share of files that mention vLLM

MODELS = ["meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "mistralai/Mistral-7B-v0.1",
          "facebook/opt-125m", "deepseek-ai/DeepSeek-V3", "google/gemma-2-9b-it"]
GOOD = ["--tensor-parallel-size 2", "--max-model-len 8192", "--gpu-memory-utilization 0.9", "--dtype bfloat16",
        "--enable-prefix-caching", "--max-num-seqs 128", "--trust-remote-code", "--port 8000",
        "--host 0.0.0.0", "--served-model-name chat", "--kv-cache-dtype fp8", "--enforce-eager",
        "--pipeline-parallel-size 1", "--max-num-batched-tokens 4096", "--seed 0"]
BAD = ["--swap-space 4", "--use-v2-block-manager", "--num-scheduler-steps 8", "--disable-log-requests",
       "--tensor-parallel 2", "--max-model-length 4096", "--enable-chunked-prefil"]
IMAGES = ["vllm/vllm-openai:v0.6.3", "vllm/vllm-openai:v0.8.5", "vllm/vllm-openai:v0.10.1",
          "vllm/vllm-openai:latest", "vllm/vllm-openai:v0.11.0"]
WORDS = ("alpha beta gamma delta deploy build cache node worker queue metrics service backup restore sync "
         "index report config release stage prod test data model train eval serve export").split()


def _flags(r: random.Random) -> list[str]:
    out = r.sample(GOOD, r.randint(2, 6))
    if r.random() < 0.5:
        out.append(r.choice(BAD))
    return out


# ------------------------------------------------------------------------------------- shell


def _sh_filler(r: random.Random, n: int) -> list[str]:
    lines = []
    for _ in range(n):
        w = r.choice(WORDS)
        k = r.randrange(12)
        if k == 0:
            lines += [f"{w}_fn() {{", f'  local dir="${{1:-/var/{w}}}"', f'  mkdir -p "$dir" && cd "$dir" || return 1',
                      f'  echo "[{w}] $(date +%s) started" >> "$LOG"', "}"]
        elif k == 1:
            lines += [f"for f in /etc/{w}/*.conf; do", '  [ -f "$f" ] || continue',
                      f'  grep -q "^{w}=" "$f" && sed -i "s/^{w}=.*/{w}=on/" "$f"', "done"]
        elif k == 2:
            lines += [f'if [ -z "${{{w.upper()}_HOME:-}}" ]; then', f'  export {w.upper()}_HOME=/opt/{w}',
                      "else", f'  echo "using ${w.upper()}_HOME"', "fi"]
        elif k == 3:
            lines += [f"docker build -t registry.example.com/{w}:$TAG \\", f"  --build-arg VERSION=$VERSION \\",
                      "  --label org.opencontainers.image.revision=$(git rev-parse HEAD) ."]
        elif k == 4:
            lines += [f"case \"$1\" in", f"  start) systemctl start {w} ;;", f"  stop) systemctl stop {w} ;;",
                      '  *) echo "usage: $0 start|stop" >&2; exit 2 ;;', "esac"]
        elif k == 5:
            lines += [f"cat > /tmp/{w}.json <<EOF", "{", f'  "name": "{w}", "replicas": $REPLICAS', "}", "EOF"]
        elif k == 6:
            lines += [f"curl -fsSL https://example.com/{w}/install.sh | bash -s -- --prefix=/usr/local"]
        elif k == 7:
            lines += [f"pip install --no-cache-dir -r requirements-{w}.txt"]
        elif k == 8:
            lines += [f"# {w}: " + " ".join(r.choice(WORDS) for _ in range(r.randint(4, 12)))]
        elif k == 9:
            lines += [f'kubectl -n {w} rollout status deploy/{w} --timeout=300s || {{ echo "failed"; exit 1; }}']
        elif k == 10:
            lines += [f"ARR=({' '.join(r.sample(WORDS, 4))})", 'for x in "${ARR[@]}"; do echo "$x"; done']
        else:
            lines += [f"{w.upper()}_COUNT=$(( ${{{w.upper()}_COUNT:-0}} + 1 ))", ""]
    return lines


def _vllm_shell(r: random.Random) -> list[str]:
    model = r.choice(MODELS)
    flags = _flags(r)
    k = r.randrange(4)
    if r.random() < 0.3:
        pre = [f"export VLLM_{r.choice(['USE_V1', 'ATTENTION_BACKEND', 'WORKER_MULTIPROC_METHOD', 'LOGGING_LEVEL'])}=1"]
    else:
        pre = []
    if k == 0:
        body = [f"vllm serve {model} \\"] + [f"  {f} \\" for f in flags[:-1]] + [f"  {flags[-1]}"]
    elif k == 1:
        body = [f"python3 -m vllm.entrypoints.openai.api_server --model {model} " + " ".join(flags)]
    elif k == 2:
        body = [f"docker run --gpus all -p 8000:8000 --ipc=host {r.choice(IMAGES)} \\",
                f"  --model {model} " + " ".join(flags)]
    else:
        body = [f'pip install "vllm=={r.choice(["0.6.3", "0.8.5", "0.10.1", "0.11.0"])}"',
                f"exec vllm serve {model} " + " ".join(flags) + ' "$@"']
    return pre + body


def shell_file(r: random.Random, vllm: bool) -> str:
    lines = ["#!/usr/bin/env bash", "set -euo pipefail", 'LOG="${LOG:-/tmp/run.log}"', ""]
    lines += _sh_filler(r, r.randint(5, 60))
    if vllm:
        lines += _vllm_shell(r)
        lines += _sh_filler(r, r.randint(0, 10))
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------------------------- YAML


def _k8s(r: random.Random, vllm: bool) -> str:
    name = r.choice(WORDS) + "-" + r.choice(WORDS)
    if vllm:
        flags = " ".join(_flags(r)).split()
        image = r.choice(IMAGES)
        args = "\n".join(f'            - "{a}"' for a in ["--model", r.choice(MODELS), *flags])
        container = (f"        - name: vllm\n          image: {image}\n          args:\n{args}\n"
                     f"          resources:\n            limits:\n              nvidia.com/gpu: {r.choice([1, 2, 4, 8])}\n")
    else:
        container = (f"        - name: {name}\n          image: registry.example.com/{name}:{r.randint(1, 40)}.{r.randint(0, 9)}\n"
                     f"          command: [\"/bin/{r.choice(WORDS)}\", \"--port\", \"{r.randint(1024, 9999)}\"]\n"
                     f"          resources:\n            requests:\n              cpu: {r.randint(1, 8)}00m\n"
                     f"              memory: {r.randint(1, 16)}Gi\n")
    env = "".join(f"            - name: {w.upper()}_{i}\n              value: \"{r.choice(WORDS)}\"\n"
                  for i, w in enumerate(r.sample(WORDS, r.randint(0, 8))))
    env_block = f"          env:\n{env}" if env else ""
    doc = (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  labels:\n    app: {name}\n"
           f"spec:\n  replicas: {r.randint(1, 5)}\n  selector:\n    matchLabels:\n      app: {name}\n"
           f"  template:\n    metadata:\n      labels:\n        app: {name}\n    spec:\n      containers:\n"
           f"{container}{env_block}")
    svc = (f"---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\nspec:\n  selector:\n    app: {name}\n"
           f"  ports:\n    - port: 80\n      targetPort: {r.randint(1024, 9999)}\n")
    return doc + (svc if r.random() < 0.6 else "")


def _workflow(r: random.Random, vllm: bool) -> str:
    steps = []
    for _ in range(r.randint(3, 14)):
        w = r.choice(WORDS)
        if r.random() < 0.4:
            steps.append(f"      - name: {w}\n        uses: actions/{w}@v{r.randint(1, 5)}\n        with:\n"
                         f"          key: {w}-${{{{ hashFiles('**/*.lock') }}}}\n")
        else:
            steps.append(f"      - name: {w}\n        run: |\n          make {w}\n          ./scripts/{w}.sh --verbose\n")
    if vllm:
        steps.append("      - name: serve\n        run: |\n          pip install vllm\n"
                     f"          vllm serve {r.choice(MODELS)} {' '.join(_flags(r))} &\n")
    return ("name: ci\non:\n  push:\n    branches: [main]\n  pull_request:\njobs:\n  build:\n"
            "    runs-on: ubuntu-latest\n    steps:\n" + "".join(steps))


def _compose(r: random.Random, vllm: bool) -> str:
    out = ["services:"]
    for _ in range(r.randint(1, 6)):
        w = r.choice(WORDS)
        out += [f"  {w}:", f"    image: {w}:latest", "    restart: unless-stopped",
                f"    ports:\n      - \"{r.randint(1024, 9999)}:80\"", f"    environment:\n      - {w.upper()}=1"]
    if vllm:
        out += ["  llm:", f"    image: {r.choice(IMAGES)}",
                f"    command: --model {r.choice(MODELS)} {' '.join(_flags(r))}",
                "    ipc: host"]
    return "\n".join(out) + "\n"


def _values(r: random.Random, vllm: bool) -> str:
    out = []
    for w in r.sample(WORDS, r.randint(4, 15)):
        out += [f"{w}:", f"  enabled: {r.choice(['true', 'false'])}", f"  replicas: {r.randint(1, 9)}",
                f"  tag: \"{r.randint(1, 9)}.{r.randint(0, 20)}\"", "  annotations: {}"]
    if vllm:
        out += ["servingEngineSpec:", "  modelSpec:", "    - name: llm", "      repository: vllm/vllm-openai",
                f"      tag: v0.{r.choice([6, 8, 10])}.{r.randint(0, 3)}", f"      modelURL: {r.choice(MODELS)}",
                "      vllmConfig:", f"        maxModelLen: {r.choice([4096, 8192])}",
                f"        extraArgs: [{', '.join(repr(f) for f in ' '.join(_flags(r)).split())}]"]
    return "\n".join(out) + "\n"


def yaml_file(r: random.Random, vllm: bool) -> str:
    return r.choice([_k8s, _k8s, _workflow, _compose, _values])(r, vllm)


# ------------------------------------------------------------------------------------ Python


def _py_sources() -> list[Path]:
    lib = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(p for p in lib.glob("*.py") if 2_000 < p.stat().st_size < 120_000)
    files += sorted(p for p in lib.glob("*/*.py") if "test" not in p.parts[-2] and 2_000 < p.stat().st_size < 60_000)
    return files


def _vllm_py(r: random.Random) -> str:
    model = r.choice(MODELS)
    k = r.randrange(3)
    if k == 0:
        kw = r.sample(["tensor_parallel_size=2", "max_model_len=8192", "gpu_memory_utilization=0.85",
                       "swap_space=4", "enforce_eager=True", "dtype='bfloat16'", "use_v2_block_manager=True"], 3)
        return f"\n\nfrom vllm import LLM, SamplingParams\n\nllm = LLM(model={model!r}, {', '.join(kw)})\n"
    if k == 1:
        argv = ", ".join(repr(w) for w in ["vllm", "serve", model, *" ".join(_flags(r)).split()])
        return f"\n\nimport subprocess\n\n\ndef _serve():\n    return subprocess.Popen([{argv}])\n"
    return "\n\nimport os\n\nos.environ['VLLM_USE_V1'] = '1'\nos.environ.setdefault('VLLM_ATTENTION_BACKEND', 'FLASH_ATTN')\n"


# -------------------------------------------------------------------------------- Dockerfile


def docker_file(r: random.Random, vllm: bool) -> str:
    base = r.choice(IMAGES) if vllm and r.random() < 0.6 else r.choice(
        ["python:3.11-slim", "ubuntu:22.04", "nvidia/cuda:12.4.1-runtime-ubuntu22.04", "node:20-alpine"])
    out = [f"FROM {base}", "ARG VERSION=1.0", "WORKDIR /app"]
    for _ in range(r.randint(2, 12)):
        w = r.choice(WORDS)
        out.append(r.choice([
            f"RUN apt-get update && apt-get install -y --no-install-recommends {w} curl \\\n    && rm -rf /var/lib/apt/lists/*",
            f"COPY {w}/ /app/{w}/", f"ENV {w.upper()}_HOME=/opt/{w}",
            f"RUN pip install --no-cache-dir {w}==$VERSION", f"EXPOSE {r.randint(1024, 9999)}",
            f"LABEL maintainer=\"{w}@example.com\""]))
    if vllm:
        if base.startswith("vllm/"):
            out.append("CMD [" + ", ".join(f'"{w}"' for w in ["--model", r.choice(MODELS), *" ".join(_flags(r)).split()]) + "]")
        else:
            out.append(f"RUN pip install vllm=={r.choice(['0.6.3', '0.8.5', '0.10.1'])}")
            out.append(f"ENTRYPOINT vllm serve {r.choice(MODELS)} " + " ".join(_flags(r)))
    else:
        out.append(f'CMD ["python", "-m", "{r.choice(WORDS)}"]')
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------- Markdown


def md_file(r: random.Random, vllm: bool) -> str:
    out = [f"# {r.choice(WORDS).title()} {r.choice(WORDS)}", ""]
    for _ in range(r.randint(2, 10)):
        out += [" ".join(r.choice(WORDS) for _ in range(r.randint(20, 80))), ""]
        if r.random() < 0.4:
            out += ["```bash", f"make {r.choice(WORDS)}", f"./run.sh --{r.choice(WORDS)}", "```", ""]
    if vllm:
        out += ["## Serving with vLLM", "", "```console", f"$ vllm serve {r.choice(MODELS)} " + " ".join(_flags(r)),
                "```", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------------- one-file


ONE = {
    "one.yaml": _k8s(random.Random(1), True).split("---")[0],
    "one.sh": "#!/usr/bin/env bash\nset -euo pipefail\nvllm serve meta-llama/Llama-3.1-8B-Instruct \\\n"
              "  --tensor-parallel-size 2 --max-model-len 8192 \\\n  --swap-space 4\n",
    "Dockerfile": "FROM vllm/vllm-openai:v0.10.1\nENV VLLM_LOGGING_LEVEL=INFO\n"
                  'CMD ["--model", "Qwen/Qwen2.5-7B-Instruct", "--tensor-parallel-size", "2", "--swap-space", "4"]\n',
    "one.py": "from vllm import LLM, SamplingParams\n\n"
              "llm = LLM(model='facebook/opt-125m', tensor_parallel_size=2, swap_space=4)\n"
              "print(llm.generate(['hi'], SamplingParams(max_tokens=8)))\n",
}


def generate(out: Path, scale: float = 1.0) -> dict:
    r = random.Random(SEED)
    if out.exists():
        shutil.rmtree(out)
    repo, one = out / "repo", out / "one"
    one.mkdir(parents=True)
    for name, text in ONE.items():
        (one / name).write_text(text)
    py = _py_sources()
    counts = {k: max(1, int(v * scale)) for k, v in COUNTS.items()}
    py = r.sample(py, min(len(py), counts["py"]))
    written = {"files": 0, "bytes": 0, "vllm": 0, "by_type": {}}

    def put(rel: str, text, vllm: bool, kind: str) -> None:
        p = repo / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode() if isinstance(text, str) else text
        p.write_bytes(data)
        written["files"] += 1
        written["bytes"] += len(data)
        written["vllm"] += vllm
        written["by_type"][kind] = written["by_type"].get(kind, 0) + 1

    dirs = [f"{a}/{b}" for a in ("services", "deploy", "tools", "infra", "apps") for b in r.sample(WORDS, 6)]
    for i in range(counts["sh"]):
        v = r.random() < VLLM_SHARE
        put(f"{r.choice(dirs)}/scripts/{r.choice(WORDS)}_{i}.sh", shell_file(r, v), v, "shell")
    for i in range(counts["yaml"]):
        v = r.random() < VLLM_SHARE
        put(f"{r.choice(dirs)}/k8s/{r.choice(WORDS)}-{i}.yaml", yaml_file(r, v), v, "yaml")
    for i, src in enumerate(py):
        v = r.random() < VLLM_SHARE
        data = src.read_bytes() + (_vllm_py(r).encode() if v else b"")
        put(f"{r.choice(dirs)}/src/{src.stem}_{i}.py", data, v, "python")
    for i in range(counts["docker"]):
        v = r.random() < VLLM_SHARE
        put(f"{r.choice(dirs)}/docker/{i}/Dockerfile", docker_file(r, v), v, "dockerfile")
    for i in range(counts["md"]):
        v = r.random() < VLLM_SHARE
        put(f"{r.choice(dirs)}/docs/{r.choice(WORDS)}-{i}.md", md_file(r, v), v, "markdown")
    h = hashlib.sha256()
    for p in sorted(repo.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(repo).as_posix().encode() + b"\0" + p.read_bytes())
    written["sha256"] = h.hexdigest()
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=HERE / "corpus")
    ap.add_argument("--scale", type=float, default=1.0)
    a = ap.parse_args()
    info = generate(a.out, a.scale)
    print(f"{info['files']} files, {info['bytes'] / 1e6:.2f} MB, {info['vllm']} mention vLLM, "
          f"{info['by_type']}, sha256 {info['sha256'][:16]}")


if __name__ == "__main__":
    main()
