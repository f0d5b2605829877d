# An image built from a fork's repository (a user's vllm, not vllm-project/vllm): the fork reads
# variables of its own that no table here holds, so an unknown name is silent (--verbose says why)
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN git clone https://github.com/someone/vllm.git /opt/vllm && cd /opt/vllm && pip install -e .
ENV VLLM_MY_FORK_SWITCH=1
CMD ["vllm", "serve", "org/model"]
