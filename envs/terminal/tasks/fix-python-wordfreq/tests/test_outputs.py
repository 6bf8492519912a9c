import os
import subprocess
import sys


def run(tmp_path, text, n):
    data = tmp_path / "in.txt"
    data.write_text(text)
    out = subprocess.run([sys.executable, "-I", os.path.abspath("wordfreq.py"), str(data), str(n)],
                         capture_output=True, text=True, timeout=20)
    return out.stdout


def test_sample(tmp_path):
    assert run(tmp_path, "The cat and the Hat.\nA cat, a bat; THE end.\n", 3) == "3 the\n2 a\n2 cat\n"


def test_other_text(tmp_path):
    text = "Zeta beta. Beta alpha ALPHA alpha; zeta gamma"
    assert run(tmp_path, text, 4) == "3 alpha\n2 beta\n2 zeta\n1 gamma\n"
