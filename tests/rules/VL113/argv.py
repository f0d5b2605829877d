# test-target: 0.34.0
# test-expect: VL113 5 warning
import subprocess

subprocess.Popen(["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "org/m", "--port", "8000"])

# the server's parser called in-process: no `python -m`, nothing to migrate
from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.utils import FlexibleArgumentParser

args = make_arg_parser(FlexibleArgumentParser()).parse_args(["--model", "org/m"])
