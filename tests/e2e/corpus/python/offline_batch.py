"""Nightly batch generation over the support-ticket dump."""
import json
import sys

from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen2.5-7B-Instruct"


def main(path: str) -> None:
    prompts = [json.loads(line)["prompt"] for line in open(path)]
    llm = LLM(
        model=MODEL,
        tensor_parallel_size=1,
        swap_space=4,  # GiB of CPU swap for preempted sequences
        enforce_eager=False,
        max_model_len=8192,
        gpu_memory_utilization=0.9,
    )
    params = SamplingParams(temperature=0.2, max_tokens=512)
    for out in llm.generate(prompts, params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main(sys.argv[1])
