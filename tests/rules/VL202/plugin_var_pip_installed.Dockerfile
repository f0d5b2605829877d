# The image installs vllm-ascend: its variables are read (silent)
FROM python:3.11
RUN pip install vllm==0.10.0 vllm-ascend==0.23.0
ENV VLLM_ASCEND_ENABLE_MLAPO=0
CMD ["vllm", "serve", "Qwen/Qwen3-8B"]
