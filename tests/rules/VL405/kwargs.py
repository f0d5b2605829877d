from vllm import LLM
# test-expect: VL405 4 error
llm = LLM("deepseek-ai/DeepSeek-V3", data_parallel_size=8, enable_expert_parallel=True, enable_eplb=True,
          eplb_config={"use_async": True, "communicator": "torch_nccl"})
