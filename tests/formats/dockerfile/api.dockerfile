# A Python base image: the RUN installs vLLM, the ENTRYPOINT is a shell-form launch.
FROM python:3.12-slim
RUN pip install --no-cache-dir "vllm==0.10.0"
# test-target: none
ENTRYPOINT vllm serve facebook/opt-125m --num-scheduler-steps 8 --port 8000
