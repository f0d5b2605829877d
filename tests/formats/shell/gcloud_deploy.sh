#!/bin/bash
# Cloud Run and Vertex AI deploys state the container in gcloud's options: the image, and the
# command and arguments as comma lists, each item a word of the launch.
gcloud run deploy vllm-svc \
  --image=vllm/vllm-openai:v0.27.1 \
  --args="--model","facebook/opt-125m","--swap-space","4","--tensor-parallel-size=2" \
  --set-env-vars=VLLM_USE_V1=1,HF_HOME=/tmp \
  --gpu=1 --gpu-type=nvidia-l4 --region=us-central1

gcloud ai models upload --region=us-central1 --display-name=opt \
  --container-image-uri=vllm/vllm-openai:v0.27.1 \
  --container-command=python3,-m,vllm.entrypoints.openai.api_server \
  --container-args='^;^--model=facebook/opt-125m;--swap-space=4;--max-model-len=2048'
