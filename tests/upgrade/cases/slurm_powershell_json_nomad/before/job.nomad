job "vllm" {
  group "serve" {
    task "vllm" {
      driver = "docker"
      config {
        image = "vllm/vllm-openai:v0.8.5"
        args  = ["--model", "Qwen/Qwen2.5-7B-Instruct", "--swap-space", "8", "--tensor-parallel-size", "2"]
      }
      env {
        VLLM_ATTENTION_BACKEND = "FLASHINFER"
        VLLM_LOGGING_LEVL      = "DEBUG"
      }
      resources {
        device "nvidia/gpu" {
          count = 2
        }
      }
    }
  }
}
