"""EngineArgs with options the target release accepts: nothing to report."""
from vllm.engine.arg_utils import EngineArgs

args = EngineArgs(model="facebook/opt-125m", tensor_parallel_size=2, gpu_memory_utilization=0.8,
                  enforce_eager=True)
