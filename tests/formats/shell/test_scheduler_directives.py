"""A batch job script's GPU request (frontends/scheduler.py): Slurm and PBS directives, read only
before the first command, as the schedulers read them."""

from __future__ import annotations

import pytest

from vllm_lint.frontends import shell
from vllm_lint.frontends.scheduler import gpu_request


@pytest.mark.parametrize("head, per_node, nodes", [
    ("#SBATCH --gres=gpu:4", 4, None),
    ("#SBATCH --gres=gpu:h100:8", 8, None),
    ("#SBATCH --gres gpu:2", 2, None),
    ("#SBATCH --gres=gpu:a100:4,mps:100", 4, None),
    ("#SBATCH --gpus-per-node=h100:4\n#SBATCH -N 2", 4, 2),
    ("#SBATCH --gpus=8\n#SBATCH --nodes=2", 4, 2),
    ("#SBATCH -G 2", 2, None),
    ("#SBATCH --nodes=2 --gres=gpu:8  # two full nodes", 8, 2),
    ("#PBS -l select=1:ncpus=32:ngpus=4", 4, 1),
    ("#PBS -l nodes=2:ppn=8:gpus=4", 4, 2),
])
def test_requests(head, per_node, nodes):
    got = gpu_request(f"#!/bin/bash\n{head}\nvllm serve m\n".encode())
    assert got is not None and (got.gpus_per_node, got.nodes) == (per_node, nodes)


@pytest.mark.parametrize("text", [
    "#!/bin/bash\nvllm serve m\n",
    "#!/bin/bash\necho start\n#SBATCH --gres=gpu:4\nvllm serve m\n",  # after the first command: not read
    "#!/bin/bash\n#SBATCH --gpus-per-task=1\nvllm serve m\n",  # needs the task count
    "#!/bin/bash\n#SBATCH --gpus=6\n#SBATCH --nodes=4\nvllm serve m\n",  # does not divide
    "#!/bin/bash\n#SBATCH --gres=gpu:$N\nvllm serve m\n",
])
def test_no_request(text):
    assert gpu_request(text.encode()) is None


def test_the_launch_gets_the_job_request():
    out = shell.extract(b"#!/bin/bash\n#SBATCH --gres=gpu:4\nsrun vllm serve m -tp 2\n", "job.sh")
    (launch,) = out.launches
    assert launch.hardware.gpu_count == 4 and launch.hardware.source == "#SBATCH --gres=gpu:4"


def test_a_launch_with_its_own_request_keeps_it():
    out = shell.extract(b"#!/bin/bash\n#SBATCH --gres=gpu:4\ndocker run --gpus 2 vllm/vllm-openai:v0.27.1 --model m\n",
                        "job.sh")
    (launch,) = out.launches
    assert launch.hardware.gpu_count == 2
