FROM vllm/vllm-openai:v0.27.1
# test-expect: VL305 3 info
ENV VLLM_DISABLE_COMPILE_CACHE=1
CMD ["meta-llama/Llama-4-Scout-17B-16E-Instruct", "-tp", "8"]
