# A NixOS host running vLLM's image through the oci-containers module; the settings are let-bound.
{ config, lib, pkgs, ... }:
let
  cfg = {
    model = "facebook/opt-125m";
    image = "vllm/vllm-openai:v0.27.1";
    port = 8000;
  };
in {
  virtualisation.oci-containers.backend = "podman";
  virtualisation.oci-containers.containers = {
    vllm = {
      autoStart = true;
      image = cfg.image;
      ports = [ "${toString cfg.port}:8000" ];
      environment = {
        VLLM_USE_V1 = "1";
      };
      extraOptions = [ "--ipc=host" "--device=nvidia.com/gpu=all" ];
      cmd = [
        "--model" cfg.model
        "--swap-space" "4"  # CPU swap space, GiB
        "--max-model-len" "4096"
      ];
    };
  };
}
