resource "kubernetes_manifest" "vllm" {
  manifest = yamldecode(<<-EOT
    apiVersion: v1
    kind: Pod
    metadata:
      name: vllm
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.27.1
          args: ["facebook/opt-125m", "--max-model-len", "2048"]
  EOT
  )
}
