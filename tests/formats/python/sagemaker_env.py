# test-target: none
"""Deploy a chat model on SageMaker with AWS's vLLM container: the container's entrypoint turns
each SM_VLLM_<NAME> variable into the server option --<name>."""

import boto3
import sagemaker
from sagemaker.model import Model

REGION = "us-west-2"
IMAGE = f"763104351884.dkr.ecr.{REGION}.amazonaws.com/vllm:0.10.0-gpu-py312-cu128-ubuntu22.04-sagemaker-v1.0"

client = boto3.client("sagemaker", region_name=REGION)
client.create_model(
    ModelName="chat-7b",
    ExecutionRoleArn="arn:aws:iam::111122223333:role/SageMakerRole",
    PrimaryContainer={
        "Image": IMAGE,
        "Environment": {
            "SM_VLLM_MODEL": "acme/chat-7b",
            "SM_VLLM_MAX_MODEL_LEN": "8192",
            "SM_VLLM_SWAP_SPACE": "8",
            "SM_VLLM_NUM_SCHEDULER_STEPS": "4",
            "SM_VLLM_ENFORCE_EAGER": "true",
            "SM_VLLM_ENABLE_PREFIX_CACHING": "false",
            "HF_TOKEN": "hf_placeholder",
        },
    },
)

# the SDK's Model: the same variables in `env`, the image in `image_uri`
model = Model(
    image_uri="763104351884.dkr.ecr.us-west-2.amazonaws.com/vllm:0.8.5-gpu-py312-sagemaker-v1.0",
    role=sagemaker.get_execution_role(),
    env={"SM_VLLM_MODEL": "acme/chat-7b", "SM_VLLM_GUIDED_DECODING_BACKEND": "xgrammar"},
)
