"""A launch's local model directory is looked for through the file's directory as written; the
real directory is resolved only to name a config.json found there. Both give what resolving
first gave: the same facts, found or not, and the same source."""

from __future__ import annotations

import json

from vllm_lint.knowledge import layout, models


def test_written_directory_finds_what_the_real_directory_finds(tmp_path, monkeypatch):
    real = tmp_path / "real" / "sub"
    (real / "m").mkdir(parents=True)
    (real / "m" / "config.json").write_text(json.dumps({"num_attention_heads": 12}))
    (tmp_path / "shared" / "llm").mkdir(parents=True)
    (tmp_path / "shared" / "llm" / "config.json").write_text(json.dumps({"num_attention_heads": 6}))
    (real / "serve.sh").write_text("vllm serve m\n")
    (tmp_path / "linkdir").symlink_to("real/sub")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "serve_link.sh").symlink_to("../real/sub/serve.sh")
    (tmp_path / "deep" / "x").mkdir(parents=True)
    (tmp_path / "deep" / "x" / "up").symlink_to("../../real")
    monkeypatch.chdir(tmp_path / "real")
    paths = [f"{tmp_path}/real/sub/serve.sh", f"{tmp_path}/linkdir/serve.sh", f"{tmp_path}/other/serve_link.sh",
             f"{tmp_path}/deep/x/up/sub/serve.sh", f"{tmp_path}/linkdir/../sub/serve.sh", "sub/serve.sh",
             "serve.sh", "../linkdir/serve.sh", f"{tmp_path}/missing/x.sh"]
    names = ["m", "./m", "../sub/m", "../../shared/llm", "../shared/llm", "sub/m", "missing"]
    found = 0
    for p in paths:
        for name in names:
            models.clear_cache()
            monkeypatch.setattr(layout, "_FILE_DIRS", {})
            want = models.resolve(name, base_dir=layout._base_dir(p))
            models.clear_cache()
            base, real_base = layout._file_dir(p)
            got = models.resolve(name, base_dir=base, real_base=real_base)
            assert got == want, (p, name)
            found += got[0] is not None
    assert found > 10  # the local directories were found, through links too
    models.clear_cache()
