# BentoML services call vLLM's own server parser on a word list
import bentoml


@bentoml.service(name="llm")
class LLM:
    @bentoml.on_startup
    async def init_engine(self):
        from vllm.entrypoints.openai.cli_args import make_arg_parser
        from vllm.utils import FlexibleArgumentParser

        args = make_arg_parser(FlexibleArgumentParser()).parse_args([
            "--served-model-name",
            "m",
            "--swap-space",
            "4",
        ])
        return args
# test-expect: VL101 15 error
