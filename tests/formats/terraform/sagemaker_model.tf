# test-target: none
# A SageMaker model on AWS's vLLM container: its SM_VLLM_* variables are the server's options.
resource "aws_sagemaker_model" "chat" {
  name               = "chat-7b"
  execution_role_arn = aws_iam_role.sagemaker.arn

  primary_container {
    image = "${var.account_id}.dkr.ecr.${var.region}.amazonaws.com/vllm:0.10.0-gpu-py312-sagemaker-v1.0"
    environment = {
      SM_VLLM_MODEL                 = "acme/chat-7b"
      "SM_VLLM_NUM_SCHEDULER_STEPS" = "4"
      SM_VLLM_ENFORCE_EAGER         = "true"
      SM_VLLM_ENABLE_PREFIX_CACHING = "false"
      HF_TOKEN                      = var.hf_token
    }
  }
}
