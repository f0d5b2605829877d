# test-expect: VL408 8 warning
# test-expect: VL408 9 warning
"""A set-up script: the strings a shell runs lose their bound; argument lists do not."""
import os
import subprocess
import sys

os.system("/opt/venv/bin/pip install vllm>=0.10.0")
subprocess.run("python3 -m pip install vllm<0.11 transformers", shell=True, check=True)
subprocess.run([sys.executable, "-m", "pip", "install", "vllm>=0.10.0"], check=True)  # no shell: the bound is kept
subprocess.run("pip install vllm>=0.10.0", check=True)  # no shell=True: not run by a shell
os.system('pip install vllm>=0.10.0')  # single quotes: a quoting fix would end the string (left alone)
wanted = "vllm>=0.10.0"  # a string no shell runs
