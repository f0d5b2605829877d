# The Kubernetes provider's own blocks: the container's attributes are its parts.
resource "kubernetes_deployment_v1" "vllm" {
  spec {
    template {
      spec {
        container {
          name  = "vllm"
          image = "vllm/vllm-openai:v0.27.1"
          args = [
            "--model", var.model,
            "--swap-space", "4", # the CPU swap space
            "--max-model-len=${var.max_len}",
            "--tensor-parallel-size", "2",
          ]
          env {
            name  = "VLLM_USE_V1"
            value = "1"
          }
          resources {
            limits = {
              "nvidia.com/gpu" = "2"
            }
          }
        }
      }
    }
  }
}

resource "google_cloud_run_v2_service" "vllm" {
  template {
    containers {
      image   = "vllm/vllm-openai:v0.27.1"
      command = ["vllm", "serve"]
      args    = ["facebook/opt-125m", "--dtype", "bf16"]
    }
  }
}

resource "kubernetes_pod" "other" {
  spec {
    container {
      image = "nginx:1.27"
      args  = ["--vllm-upstream", "http://vllm:8000"]
    }
  }
}
