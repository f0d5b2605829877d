# A Deployment applied with the kubectl provider: the manifest is a heredoc, read as YAML.
resource "kubectl_manifest" "vllm" {
  yaml_body = <<-EOT
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: vllm
      namespace: ${var.namespace}
    spec:
      template:
        spec:
          containers:
            - name: vllm
              image: vllm/vllm-openai:v0.27.1
              command: ["vllm", "serve", "facebook/opt-125m"]
              args:
                - --swap-space
                - "4"
                - --tensor-parallel-size
                - "${var.gpus}"
              resources:
                limits:
                  nvidia.com/gpu: 2
  EOT
}

resource "google_compute_instance" "box" {
  metadata_startup_script = <<EOF
#!/bin/bash
docker run --gpus all vllm/vllm-openai:v0.27.1 --model facebook/opt-125m --dtype bf16
EOF
}
