import os
import shutil
import subprocess


def test_tool():
    out = subprocess.run(["./dist/tool", "bob", "ok"], capture_output=True, text=True, timeout=20)
    assert out.stdout == "hi bob\nOK\n"
    assert open("dist/tool").readline() == "#!/bin/bash\n"


def test_rebuild(tmp_path):
    shutil.copy("build.sh", tmp_path / "build.sh")
    shutil.copytree("parts", tmp_path / "parts")
    (tmp_path / "parts" / "50-extra.sh").write_text('echo extra\n')
    subprocess.run(["bash", "build.sh"], cwd=tmp_path, timeout=30, check=True, capture_output=True)
    assert os.access(tmp_path / "dist" / "tool", os.X_OK)
    out = subprocess.run(["./dist/tool"], cwd=tmp_path, capture_output=True, text=True, timeout=20)
    assert out.stdout == "extra\nhi world\nDONE\n"
