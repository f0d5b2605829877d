"""Quick throughput check; run on the bench box (vllm 0.18.1 from requirements.txt)."""
import os

tp = 2
os.system(f"vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size {tp} --num-scheduler-steps 8 --port 8011 &")
os.system("sudo -E env VLLM_USE_V1=1 uv run vllm serve Qwen/Qwen2.5-0.5B-Instruct --max-num-partial-prefills 4 --port 8012 &")
