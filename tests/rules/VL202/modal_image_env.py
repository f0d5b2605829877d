# test-target: 0.10.0
# Modal: a modal.Image's env() is the environment of the functions that run on it
import modal

image = modal.Image.debian_slim().pip_install("vllm==0.10.0")
image = image.env({"HF_HUB_ENABLE_HF_TRANSFER": "1", "VLLM_ATENTION": "x"})
other = {"VLLM_NOT_AN_IMAGE": "1"}.copy()


@modal.App("a").function(image=image)
def run():
    from vllm import LLM

    return LLM("m")
# test-expect: VL202 6 info
