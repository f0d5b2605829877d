resource "kubernetes_deployment" "vllm" {
  metadata { name = "vllm" }
  spec {
    template {
      metadata { labels = { app = "vllm" } }
      spec {
        container {
          name  = "vllm"
          image = "vllm/vllm-openai:v0.8.5"
          args  = ["--model", "Qwen/Qwen2.5-7B-Instruct", "--swap-space", "8", "--num-scheduler-steps", "4"]
        }
      }
    }
  }
}
