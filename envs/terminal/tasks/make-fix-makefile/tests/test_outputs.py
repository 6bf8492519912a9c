import hashlib
import shutil
import subprocess


def test_built():
    assert open("out/book.txt").read() == "HELLO\nWORLD\n"
    digest = hashlib.sha256(b"HELLO\nWORLD\n").hexdigest()
    assert open("out/book.sum").read() == digest + "  book.txt\n"


def test_makefile_works(tmp_path):
    # The fixed Makefile builds a fresh copy of the tree too.
    shutil.copy("Makefile", tmp_path / "Makefile")
    shutil.copytree("src", tmp_path / "src")
    (tmp_path / "src" / "c.txt").write_text("again\n")
    subprocess.run(["make", "-s"], cwd=tmp_path, timeout=30, check=True, capture_output=True)
    assert (tmp_path / "out" / "book.txt").read_text() == "HELLO\nWORLD\nAGAIN\n"
