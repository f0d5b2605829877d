"""Serve a model split over several GPUs.

Usage (documentation: the capital letters are placeholders, never values):

    vllm serve acme/chat-7b --tensor-parallel-size X --pipeline-parallel-size Y

then check it with `vllm serve acme/chat-7b -tp N --max-model-len 4096`.
"""

import subprocess

# the same command for one node: vllm serve acme/chat-7b --tensor-parallel-size N --dtype halfish


def main(tp: int) -> None:
    # a real launch: its words are values, and a letter there is refused
    subprocess.run(["vllm", "serve", "acme/chat-7b", "--tensor-parallel-size", "T"], check=True)
