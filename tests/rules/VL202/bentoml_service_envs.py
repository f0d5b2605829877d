# test-target: 0.10.0
# BentoML: the service's envs are the environment of the process that runs vLLM
import bentoml

image = bentoml.images.Image(python_version="3.12").python_packages("vllm==0.10.0")


@bentoml.service(envs=[{"name": "UV_NO_PROGRESS", "value": "1"}, {"name": "VLLM_ATENTION", "value": "x"}], image=image)
class Service:
    def __init__(self):
        from vllm import LLM

        self.llm = LLM("m")
# test-expect: VL202 8 info
