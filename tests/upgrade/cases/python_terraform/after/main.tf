resource "kubernetes_deployment" "vllm" {
  metadata { name = "vllm" }
  spec {
    template {
      metadata { labels = { app = "vllm" } }
      spec {
        container {
          name  = "vllm"
          image = "vllm/vllm-openai:v0.27.1"
          args  = ["Qwen/Qwen2.5-7B-Instruct"]
        }
      }
    }
  }
}
