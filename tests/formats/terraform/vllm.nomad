# A Nomad job: the docker task's config, its env block and its GPU device, read as one container.
# test-target: none
job "vllm" {
  group "serve" {
    task "vllm" {
      driver = "docker"
      config {
        image = "vllm/vllm-openai:v0.8.5"
        args  = ["--model", "facebook/opt-125m", "--num-scheduler-steps", "8", "--async-scheduling"]
      }
      env {
        VLLM_USE_V1      = "1"
        VLLM_HOST_IPP    = "10.0.0.1"
      }
      resources {
        device "nvidia/gpu" {
          count = 1
        }
      }
    }
    task "proxy" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
  }
}
