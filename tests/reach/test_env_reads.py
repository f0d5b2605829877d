"""The scrape of environment reads outside envs.py (vllm_lint/scrape/env_reads.py), on small
trees written here."""

from __future__ import annotations

from vllm_lint.scrape.env_reads import build_reads, config_env_deprecations, runtime_reads
from vllm_lint.scrape.tree import DictTree


def tree(files: dict[str, str]) -> DictTree:
    return DictTree({k: v.encode() for k, v in files.items()})


def test_runtime_reads_are_reads_not_assignments():
    t = tree({
        "vllm/a.py": 'import os\nx = os.getenv("VLLM_A", "0")\ny = os.environ.get(\'VLLM_B\')\n'
                     'os.environ["VLLM_C"] = "1"\nif "VLLM_D" in os.environ: pass\nz = os.environ["VLLM_E"]\n',
        "vllm/envs.py": 'os.getenv("VLLM_IN_ENVS")\n',
        "tests/t.py": 'os.getenv("VLLM_TEST_ONLY")\n',
    })
    assert runtime_reads(t, known=["VLLM_A"]) == ["VLLM_B", "VLLM_D", "VLLM_E"]


def test_build_reads_setup_cmake_and_scripts_the_dockerfiles_call():
    t = tree({
        "setup.py": 'os.getenv("VLLM_PRECOMPILED_WHEEL_LOCATION")\n',
        "CMakeLists.txt": "if (DEFINED ENV{VLLM_CPU_AVX512BF16})\nset(ENV{VLLM_WRITTEN} 1)\n",
        "cmake/cpu_extension.cmake": "set(X $ENV{VLLM_CPU_X86})\n",
        "docker/Dockerfile": "RUN python3 check-wheel-size.py dist\n",
        ".buildkite/check-wheel-size.py": 'int(os.getenv("VLLM_MAX_SIZE_MB", 400))\n',
        ".buildkite/unrelated.py": 'os.getenv("VLLM_NOT_CALLED")\n',
    })
    assert build_reads(t) == ["VLLM_CPU_AVX512BF16", "VLLM_CPU_X86", "VLLM_MAX_SIZE_MB",
                              "VLLM_PRECOMPILED_WHEEL_LOCATION"]


def test_config_env_deprecations_name_the_config_field():
    t = tree({"vllm/config/attention.py": '''\
class AttentionConfig:
    backend: str = None

    def _set_from_env_if_set(self, field_name: str, env_var_name: str) -> None:
        """Set field from env var if set, with deprecation warning."""
        from vllm import envs
        if envs.is_set(env_var_name):
            logger.warning("Using %s is deprecated", env_var_name)

    def __post_init__(self) -> None:
        self._set_from_env_if_set("backend", "VLLM_ATTENTION_BACKEND")
'''})
    assert config_env_deprecations(t) == {"VLLM_ATTENTION_BACKEND": "--attention-config.backend"}
