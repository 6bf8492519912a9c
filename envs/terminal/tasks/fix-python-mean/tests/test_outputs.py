import os
import subprocess
import sys


def run(tmp_path, numbers):
    data = tmp_path / "in.txt"
    data.write_text("".join("%s\n" % n for n in numbers))
    out = subprocess.run([sys.executable, "-I", os.path.abspath("stats.py"), str(data)],
                         capture_output=True, text=True, timeout=20)
    return out.stdout.split("\n")


def test_integers(tmp_path):
    lines = run(tmp_path, [4, 8, 15, 16, 23, 42])
    assert lines[0] == "count 6"
    assert float(lines[1].split()[1]) == 18.0
    assert float(lines[2].split()[1]) == 42


def test_decimals(tmp_path):
    lines = run(tmp_path, ["2.5", "3.5", "7"])
    assert lines[0] == "count 3"
    assert float(lines[1].split()[1]) == 4.33
    assert float(lines[2].split()[1]) == 7.0
