# test-target: 0.8.5
"""Engine arguments read from the environment with a literal default are checked as that
default, and the finding says so; commands split with str.split() and the engine's own parser
given a literal list are read too (issue 27)."""
import os
import subprocess

from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.utils import FlexibleArgumentParser

subprocess.run(["vllm", "serve", "facebook/opt-125m",
                "--dtype", os.environ.get("DTYPE", "fp16"),
                "--max-num-seqs", os.getenv("MAX_SEQS", "256")])

subprocess.Popen(f"vllm serve {os.environ['MODEL']} --quantization awq4 --port 8000".split())

parser = AsyncEngineArgs.add_cli_args(FlexibleArgumentParser())
engine_args = AsyncEngineArgs.from_cli_args(parser.parse_args(["--model", "facebook/opt-125m", "--tensor-parallel", "2"]))
