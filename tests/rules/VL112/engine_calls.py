# LLM(...) never runs the serve check; a subprocess running `vllm serve` does
import subprocess

from vllm import LLM

llm = LLM(model="m", enable_auto_tool_choice=True)
subprocess.run(["vllm", "serve", "m", "--enable-auto-tool-choice"], check=True)
