# test-target: none
# test-expect: VL105 14 error
"""SageMaker's vLLM container: its entrypoint turns each SM_VLLM_<NAME> variable into `--<name> value`
on the server's command line, so a value the option refuses there is refused at start."""

import boto3

boto3.client("sagemaker").create_model(
    ModelName="chat",
    PrimaryContainer={
        "Image": "763104351884.dkr.ecr.us-west-2.amazonaws.com/vllm:0.10.0-gpu-py312-sagemaker-v1.0",
        "Environment": {
            "SM_VLLM_MODEL": "acme/chat-7b",
            "SM_VLLM_MAX_MODEL_LEN": "lots",
            "SM_VLLM_DTYPE": "float8",
            "SM_VLLM_TENSOR_PARALLEL_SIZE": "2",
        },
    },
)
