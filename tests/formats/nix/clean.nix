# vLLM's image pinned, options every release in the database accepts.
{ ... }:
{
  virtualisation.oci-containers.containers.vllm = {
    image = "vllm/vllm-openai:v0.27.1";
    ports = [ "8000:8000" ];
    cmd = [ "--max-model-len" "4096" "--gpu-memory-utilization" "0.9" ];
  };
}
